// Outside text as a person is shown it (docs/security.md): every character a terminal would act on (C0, DEL, C1)
// or draw as nothing (Unicode Cf, line and paragraph separators) becomes a visible escape, so no answer can
// retitle, clear, recolour or reorder a line. A backslash is kept, so shown text passes again unchanged.

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

// A whole message about to be written for a person: shownText's escapes, its line breaks kept, and its SGR
// colour when the stream has colour. The last guard at the output's edge; outside text passed shownText already.
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

// A --json line with DEL, C1 and the invisible as `\uXXXX`: the same JSON, safe on a terminal. Such
// characters only occur inside JSON strings.
export function terminalSafeJson(line: string): string {
  jsonRaw.lastIndex = 0;
  return jsonRaw.test(line) ? line.replace(jsonRaw, jsonEscapeOf) : line;
}
