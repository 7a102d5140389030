// Text as a charset's bytes, so a file goes back to a desk in its own file's charset: UTF-8, UTF-16 either way,
// or a WHATWG single-byte charset (windows-1251...), encoded as the inverse of its TextDecoder.
export interface CharsetEncoder {
  /** The charset's canonical WHATWG name (`utf-8`, `windows-1251`). */
  readonly encoding: string;
  /** The most bytes one UTF-16 unit of text takes. */
  readonly maxBytesPerUnit: number;
  /** `text` written into `buffer` from `at`: the bytes it took, or undefined when a character has none in the charset. */
  encodeInto(text: string, buffer: Buffer, at: number): number | undefined;
}

const utf8: CharsetEncoder = {
  encoding: 'utf-8',
  maxBytesPerUnit: 3,
  encodeInto: (text, buffer, at) => buffer.write(text, at, 'utf8'),
};

function utf16(encoding: 'utf-16le' | 'utf-16be'): CharsetEncoder {
  return {
    encoding,
    maxBytesPerUnit: 2,
    encodeInto(text, buffer, at) {
      const length = buffer.write(text, at, 'utf16le');
      if (encoding === 'utf-16be') buffer.subarray(at, at + length).swap16();
      return length;
    },
  };
}

// The single-byte encodings of the WHATWG Encoding Standard (section 9), by their canonical names.
const singleByteEncodings = new Set([
  'ibm866',
  'iso-8859-2',
  'iso-8859-3',
  'iso-8859-4',
  'iso-8859-5',
  'iso-8859-6',
  'iso-8859-7',
  'iso-8859-8',
  'iso-8859-8-i',
  'iso-8859-10',
  'iso-8859-13',
  'iso-8859-14',
  'iso-8859-15',
  'iso-8859-16',
  'koi8-r',
  'koi8-u',
  'macintosh',
  'windows-874',
  'windows-1250',
  'windows-1251',
  'windows-1252',
  'windows-1253',
  'windows-1254',
  'windows-1255',
  'windows-1256',
  'windows-1257',
  'windows-1258',
  'x-mac-cyrillic',
]);

/** A single-byte charset's byte for each character its decoder gives; ASCII is itself in every one of them. */
function singleByte(encoding: string): CharsetEncoder {
  const decoder = new TextDecoder(encoding);
  const byteOf = new Map<number, number>();
  for (let byte = 0x80; byte <= 0xff; byte++) {
    const decoded = decoder.decode(Uint8Array.of(byte));
    // U+FFFD marks a byte with no character in the charset.
    if (decoded !== '\ufffd') byteOf.set(decoded.charCodeAt(0), byte);
  }
  return {
    encoding,
    maxBytesPerUnit: 1,
    encodeInto(text, buffer, at) {
      for (let index = 0; index < text.length; index++) {
        const unit = text.charCodeAt(index);
        const byte = unit < 0x80 ? unit : byteOf.get(unit);
        if (byte === undefined) return undefined;
        buffer[at + index] = byte;
      }
      return text.length;
    },
  };
}

/** How a file goes back: its charset's encoder, and whether it starts with a byte order mark. */
export interface ReplyCharset {
  encoder: CharsetEncoder;
  bom: boolean;
}

// The charset written for a desk whose file came in `encoding`: the same where it can be written (UTF-16
// always with its BOM), else UTF-8 with a BOM (gb18030...).
export function replyCharset(encoding: string, bom: boolean): ReplyCharset {
  if (encoding === 'utf-8') return { encoder: utf8, bom };
  if (encoding === 'utf-16le' || encoding === 'utf-16be') return { encoder: utf16(encoding), bom: true };
  if (singleByteEncodings.has(encoding)) return { encoder: singleByte(encoding), bom: false };
  return { encoder: utf8, bom: true };
}
