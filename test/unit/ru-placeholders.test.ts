import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ru } from '../../src/i18n/ru.js';

/**
 * A Russian message names a value as Russian help does (`--record <каталог>`, never `<dir>`):
 * every placeholder in the catalogue's texts whose word help says in Russian is said so.
 */
describe('the Russian catalogue names values as its help does', () => {
  it('no <word> left that help translates (<dir>, <file>, <url>, <txn-id>…)', () => {
    const source = readFileSync(new URL('../../src/i18n/ru.ts', import.meta.url), 'utf8');
    // Comments are the code's, in English.
    const texts = source.replace(/^\s*(?:\/\/|\/?\*).*$/gm, '');
    const named: Record<string, string> = { ...ru.help.valueNames, ...ru.help.argumentNames };
    const left = [...texts.matchAll(/<([A-Za-z][\w-]*)>/g)]
      .map(([, word = '']) => word)
      .filter((word) => named[word] !== undefined && named[word] !== word);
    expect(left).toEqual([]);
  });
});
