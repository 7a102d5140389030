// A gateway's answer as text: the body is JSON (spec 2) in a charset each gateway declares. Decoded as browsers
// do (WHATWG Encoding "decode"): a byte order mark first, then the declared charset if TextDecoder knows it,
// else UTF-8. The size limit counts bytes before any decoding.

/** The value of the first `charset` parameter of a Content-Type, unquoted; undefined without one. */
export function charsetOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const match = /;\s*charset\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(contentType);
  if (!match) return undefined;
  const value = match[1] === undefined ? match[2] : match[1].replace(/\\(.)/g, '$1');
  return value?.trim() || undefined;
}

type Decoder = InstanceType<typeof TextDecoder>;

const utf8 = new TextDecoder('utf-8');

/** Decoders by lower-cased label. Only labels TextDecoder accepts are kept, and there are a
 * couple of hundred of them, so a gateway cannot grow this; a batch reuses one decoder. */
const decoders = new Map<string, Decoder>([['utf-8', utf8]]);

/** The decoder for a declared charset; UTF-8 for a label TextDecoder does not know. */
function decoderFor(charset: string | undefined): Decoder {
  if (charset === undefined) return utf8;
  const label = charset.toLowerCase();
  let decoder = decoders.get(label);
  if (decoder === undefined) {
    try {
      // RangeError for an unknown label (and for the "replacement" ones, e.g. iso-2022-kr).
      decoder = new TextDecoder(label);
    } catch {
      return utf8;
    }
    decoders.set(label, decoder);
  }
  return decoder;
}

/** The encoding a byte order mark names, which wins over the declared charset (BOM sniffing). */
function byteOrderMark(body: Uint8Array): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** A body as text, by its Content-Type's charset. Bytes the charset cannot map become U+FFFD
 * rather than an error: the envelope parser then judges what is left. The mark itself is
 * dropped (JSON parsers refuse it). */
export function decodeAnswer(body: Uint8Array, contentType: string | undefined): string {
  return decoderFor(byteOrderMark(body) ?? charsetOf(contentType)).decode(body);
}
