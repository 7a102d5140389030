/**
 * Text from outside (a gateway's Message, a voucher's name, an account, an order file's cell, a
 * ledger's operator) as a person is shown it: every character a terminal would act on rather
 * than draw is written as a visible escape, so a gateway cannot retitle the window (`ESC ] 0;`),
 * clear the screen (`ESC [2J`), colour or hide text, ring the bell, or reorder a line with a
 * bidi override before a person answers y/N, and no character drawn as nothing (a zero-width
 * space, a line separator) makes one account look like another. C0 controls, DEL and C1 controls
 * become `\x1b` (`\n`, `\r`, `\t` for the usual three); every format character (Unicode's Cf:
 * bidi controls, zero-width characters, the BOM, the soft hyphen, tags) and the line and paragraph
 * separators `\u200b`, `\u2028`, `\u{e0041}`. An escape sequence needs its ESC (or a C1 CSI), so
 * it is shown whole as text.
 *
 * A backslash is left as it is: text already shown passes again unchanged, so a value escaped
 * in a renderer and again at the output's edge reads the same (docs/security.md). Data output
 * (--json, CSV) never passes here: it keeps the exact text, escaped only by its format.
 */

// What is drawn as nothing, or moves the text around: Unicode's format characters (Cf: bidi
// controls, LRM, RLM, the Arabic letter mark, U+200B..U+200D, U+2060, U+FEFF...) and U+2028, U+2029.
const invisible = String.raw`\p{Cf}\p{Zl}\p{Zp}`;
// C0, DEL and C1, and the invisible.
const control = new RegExp(String.raw`[\u0000-\u001f\u007f-\u009f${invisible}]`, 'u');
const controls = new RegExp(control.source, 'gu');

const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One control character as the escape a person reads: `\x1b`, `\n`, `\u202e`. */
function escapeOf(character: string): string {
  const known = named[character];
  if (known !== undefined) return known;
  const code = character.codePointAt(0)!;
  if (code > 0xffff) return `\\u{${code.toString(16)}}`;
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Outside text for a person, on one line: every control shown as its escape; clean text comes back as it is. */
export function shownText(text: string): string {
  return control.test(text) ? text.replace(controls, escapeOf) : text;
}

// What a message built by us may hold of its own: line breaks (LF, left out of the class), and
// when the stream has colour the SGR sequences our Style wrote. The class is `control`'s otherwise.
const messageControls = new RegExp(
  String.raw`\u001b\[[0-9;]*m|[\u0000-\u0009\u000b-\u001f\u007f-\u009f${invisible}]`,
  'gu',
);
const messageControl = new RegExp(messageControls.source, 'u');

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
    match.startsWith('\u001b[') ? (colour ? match : shownText(match)) : escapeOf(match),
  );
}

// What JSON.stringify leaves raw that a terminal acts on or draws as nothing: DEL, C1 and the
// invisible (C0 it escapes itself).
const jsonRaw = new RegExp(String.raw`[\u007f-\u009f${invisible}]`, 'gu');

/** A character as JSON escapes it: `\u2028`, or both halves of a pair (`\udb40\udc41`, a tag). */
function jsonEscapeOf(character: string): string {
  let escaped = '';
  for (let at = 0; at < character.length; at++)
    escaped += `\\u${character.charCodeAt(at).toString(16).padStart(4, '0')}`;
  return escaped;
}

/**
 * A JSON line (--json) with DEL, C1 and the invisible written as `\uXXXX` escapes: the same
 * JSON, parsed to the same exact text, but safe on a terminal, where --json often lands. Such
 * characters only occur inside JSON strings, so every one of them is replaced.
 */
export function terminalSafeJson(line: string): string {
  jsonRaw.lastIndex = 0;
  return jsonRaw.test(line) ? line.replace(jsonRaw, jsonEscapeOf) : line;
}
