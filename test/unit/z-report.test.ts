import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  chainBreak,
  firstPreviousHash,
  type StoredZReport,
  sha256Hex,
} from '../../src/ledger/z-report.js';

// The Z-reports' chain as docs/desk-safety.md states it, checkable without agentpay.
describe('the Z-report chain', () => {
  it('writes canonical JSON: keys sorted, no whitespace, strings as JSON writes them', () => {
    expect(canonicalJson({ b: [{ z: 1, a: 'Ж' }], a: '150.00', c: null })).toBe(
      '{"a":"150.00","b":[{"a":"Ж","z":1}],"c":null}',
    );
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  const chain = (count: number): StoredZReport[] => {
    const reports: StoredZReport[] = [];
    let previous = firstPreviousHash;
    for (let number = 1; number <= count; number++) {
      const content = canonicalJson({ number, previousHash: previous, totals: [] });
      const hash = sha256Hex(content);
      reports.push({ number: String(number), content, hash, previousHash: previous });
      previous = hash;
    }
    return reports;
  };

  it('finds the first report that is not as it was made', () => {
    expect(chainBreak(chain(3))).toBeUndefined();
    const edited = chain(3);
    edited[1] = { ...edited[1]!, content: edited[1]!.content.replace('[]', '[1]') };
    expect(chainBreak(edited)).toEqual({ number: '2', why: 'hash' });
    const missing = chain(3).filter((report) => report.number !== '2');
    expect(chainBreak(missing)).toEqual({ number: '3', why: 'number' });
    const relinked = chain(2);
    const content = canonicalJson({ number: 2, previousHash: firstPreviousHash, totals: [] });
    relinked[1] = { number: '2', content, hash: sha256Hex(content), previousHash: firstPreviousHash };
    expect(chainBreak(relinked)).toEqual({ number: '2', why: 'link' });
  });
});
