import { describe, expect, it } from 'vitest';
import { matchOutput, newIdMap, withActualIds } from '../helpers/doc-output.js';

/** The docs' walk-through comparison is loose only where a run must differ: ids, dates, times. */
describe('matchOutput', () => {
  const documented = '1795289214527958198';
  const actual = '1796180619282127414';

  it('binds a shown TransactionID to the printed one, and a later command types the printed one', () => {
    const ids = matchOutput([`  TransactionID  ${documented}`], [`  TransactionID  ${actual}`], newIdMap());
    expect(ids?.actual.get(documented)).toBe(actual);
    expect(withActualIds(`agentpay status ${documented}`, ids!)).toBe(`agentpay status ${actual}`);
  });

  it('refuses one shown id standing for two printed ones, or two shown ids for one printed', () => {
    const other = '1796180619282127415';
    expect(matchOutput([documented, documented], [actual, other], newIdMap())).toBeUndefined();
    expect(matchOutput([documented, '1795289214527958199'], [actual, actual], newIdMap())).toBeUndefined();
  });

  it('takes any date, time and duration, and nothing else loosely', () => {
    const shown = ['payments for 2026-11-21 at 09:14:03 (local day)', '  ✓ 1 pay  349 ms'];
    expect(
      matchOutput(shown, ['payments for 2026-12-02 at 23:59:01 (local day)', '  ✓ 1 pay  7 ms'], newIdMap()),
    ).toBeDefined();
    expect(
      matchOutput(['until 2026-11-27 15:30:00 +05:00'], ['until 2026-12-02 03:55:37 -03:00'], newIdMap()),
    ).toBeDefined();
    expect(matchOutput(['2497.00 KZT'], ['2497.01 KZT'], newIdMap())).toBeUndefined();
    expect(matchOutput(['RequestID 9007199254740993'], ['RequestID 9007199254740994'], newIdMap())).toBeUndefined();
  });

  it('takes any RequestID only when told to (pages run one after another in one HOME)', () => {
    const shown = ['  RequestID      9007199254740993'];
    const printed = ['  RequestID      9007199254741002'];
    expect(matchOutput(shown, printed, newIdMap())).toBeUndefined();
    expect(matchOutput(shown, printed, newIdMap(), { requestIds: true })).toBeDefined();
  });

  it('lets a `...` line stand for any number of lines, and nothing else', () => {
    expect(matchOutput(['a', '...', 'd'], ['a', 'b', 'c', 'd'], newIdMap())).toBeDefined();
    expect(matchOutput(['a', '...'], ['a'], newIdMap())).toBeDefined();
    expect(matchOutput(['a'], ['a', 'b'], newIdMap())).toBeUndefined();
  });
});
