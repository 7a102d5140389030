import { describe, expect, it } from 'vitest';
import { encodeForm, type FormField } from '../../src/protocol/form.js';

describe('encodeForm', () => {
  it('writes exactly what URLSearchParams writes', () => {
    let state = 5;
    const next = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pieces = ['a', 'Z', '0', ' ', '*', '-', '.', '_', '!', "'", '(', ')', '~', '&', '=', '+', '%', '/', ':', '?', '#', '[', ']',
      '"', '\\', '\n', '\u0000', 'é', 'Успех', '🙂', '\ud800', '\udc00', '2026-11-21 20:00:00', '10.630'];
    for (let round = 0; round < 5000; round++) {
      const text = () => Array.from({ length: Math.floor(next() * 6) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const fields: FormField[] = Array.from({ length: 1 + Math.floor(next() * 4) }, () => [text(), text()]);
      expect(encodeForm(fields), JSON.stringify(fields)).toBe(new URLSearchParams(fields.map(([n, v]): [string, string] => [n, v])).toString());
    }
  });
});
