/**
 * Text from outside (a gateway's Message, a voucher's name, an account, an order file's cell, a
 * ledger's operator) as a person is shown it: every character a terminal would act on rather
 * than draw is written as a visible escape, so a gateway cannot retitle the window (`ESC ] 0;`),
 * clear the screen (`ESC [2J`), colour or hide text, ring the bell, or reorder a line with a
 * bidi override before a person answers y/N. C0 controls, DEL and C1 controls become `\x1b`
 * (`\n`, `\r`, `\t` for the usual three), bidi controls `\u202e`. An escape sequence needs its
 * ESC (or a C1 CSI), so it is shown whole as text.
 *
 * A backslash is left as it is: text already shown passes again unchanged, so a value escaped
 * in a renderer and again at the output's edge reads the same (docs/security.md). Data output
 * (--json, CSV) never passes here: it keeps the exact text, escaped only by its format.
 */

// C0, DEL and C1; the bidi embeddings, overrides and isolates, LRM, RLM and the Arabic letter mark.
const control = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const controls = new RegExp(control.source, 'g');

const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One control character as the escape a person reads: `\x1b`, `\n`, `\u202e`. */
function escapeOf(character: string): string {
  const known = named[character];
  if (known !== undefined) return known;
  const code = character.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Outside text for a person, on one line: every control shown as its escape; clean text comes back as it is. */
export function shownText(text: string): string {
  return control.test(text) ? text.replace(controls, escapeOf) : text;
}

// What a message built by us may hold of its own: line breaks (LF, left out of the class), and
// when the stream has colour the SGR sequences our Style wrote. The class is `control`'s otherwise.
const messageControls =
  /\u001b\[[0-9;]*m|[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const messageControl = new RegExp(messageControls.source);

/**
 * A whole message about to be written for a person (a note, a warning, an error): the same
 * escapes as shownText, but its line breaks kept, and its colour (SGR sequences only) when the
 * stream has colour, since then our Style wrote it. The last guard at the output's edge: outside
 * text in it should have passed shownText already, in the renderer that put it there (a colour
 * sequence from outside is caught only there).
 */
export function shownMessage(text: string, colour: boolean): string {
  if (!messageControl.test(text)) return text;
  return text.replace(messageControls, (match) =>
    match.length > 1 ? (colour ? match : shownText(match)) : escapeOf(match),
  );
}

// What JSON.stringify leaves raw that a terminal acts on: DEL, C1 and the bidi controls (C0 it escapes itself).
const jsonRaw = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A JSON line (--json) with DEL, C1 and bidi controls written as `\uXXXX` escapes: the same
 * JSON, parsed to the same exact text, but safe on a terminal, where --json often lands. Such
 * characters only occur inside JSON strings, so every one of them is replaced.
 */
export function terminalSafeJson(line: string): string {
  jsonRaw.lastIndex = 0;
  return jsonRaw.test(line)
    ? line.replace(jsonRaw, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : line;
}
