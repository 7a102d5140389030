/**
 * Bytes of Russian text in the charsets gateways declare, built from the code tables rather
 * than by the TextDecoder under test.
 */

/** windows-1251: ASCII as is, А..я at 0xC0..0xFF, Ё at 0xA8 and ё at 0xB8. */
export function windows1251(text: string): Buffer {
  const bytes = [...text].map((char) => {
    const code = char.codePointAt(0)!;
    if (code < 0x80) return code;
    if (code >= 0x410 && code <= 0x44f) return 0xc0 + (code - 0x410);
    if (char === 'Ё') return 0xa8;
    if (char === 'ё') return 0xb8;
    throw new Error(`no windows-1251 byte for ${JSON.stringify(char)} in this table`);
  });
  return Buffer.from(bytes);
}

/** 'Платёж принят' in KOI8-R, whose letters are not in alphabetical order. */
export const paymentAcceptedKoi8r = {
  text: 'Платёж принят',
  bytes: Buffer.from([0xf0, 0xcc, 0xc1, 0xd4, 0xa3, 0xd6, 0x20, 0xd0, 0xd2, 0xc9, 0xce, 0xd1, 0xd4]),
};

/** UTF-16 big-endian: Node writes only little-endian, so each pair of bytes is swapped. */
export function utf16be(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}
