import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { ru } from '../../src/i18n/ru.js';
import type { PaymentRow } from '../../src/ledger/ledger.js';
import { type Finding, RegistryComparison } from '../../src/registry/compare.js';
import { loadRegistry } from '../../src/registry/load-registry.js';
import type { RegistryRow } from '../../src/registry/read.js';
import { registryTableLines } from '../../src/render/registry.js';
import { plainStyle } from '../../src/render/style.js';
import { fileOf, tsv } from '../helpers/registry-files.js';

/** The findings of these rows against these payments, the compared days `days`; the comparison closed after. */
function compared(rows: readonly RegistryRow[], payments: readonly PaymentRow[], days: readonly string[]) {
  const comparison = RegistryComparison.open();
  try {
    for (const row of rows) expect(comparison.addRow(row)).toBeUndefined();
    const registryDays = comparison.registryDays();
    comparison.addPayments(payments);
    comparison.compare(days);
    const findings: Finding[] = [...comparison.findings()];
    return { findings, registryDays, agreed: comparison.agreed, tallies: comparison.tallies };
  } finally {
    comparison.close();
  }
}

const brief = (finding: Finding) => [finding.list, finding.transactionId, finding.ledgerState];

describe('comparing a registry with the ledger', () => {
  const day = '2026-11-21';
  const at = new Date(2026, 10, 21, 12).toISOString();
  const entry = (
    id: string,
    state: 'success' | 'failed' | 'pending' | 'unknown' | undefined,
    amount = '499.00',
    when = at,
  ): PaymentRow => ({
    transactionId: id,
    account: `acct-${id}`,
    amount,
    at: when,
    state: state ?? 'unknown',
  });
  const row = (transactionId: string, amount: string, line: number): RegistryRow => ({
    transactionId,
    date: day,
    time: undefined,
    account: `acct-${transactionId}`,
    amount,
    line,
  });

  it('sorts every case into its list, amounts compared and summed as exact decimals', () => {
    const nextDay = new Date(2026, 10, 22, 0, 0, 5).toISOString();
    const { findings, agreed, tallies } = compared(
      [
        row('1', '499', 1),
        row('2', '500.00', 2),
        row('3', '499.00', 3),
        row('4', '499.00', 4),
        row('9', '1.50', 5),
        row('7', '499.00', 6),
      ],
      [
        entry('1', 'success'), // agrees: 499 = 499.00
        entry('2', 'success'), // different amount
        entry('3', 'failed'), // the provider counts a payment the ledger says failed
        entry('4', undefined), // open, listed as paid
        entry('5', 'success', '10.25'), // only in the ledger
        entry('6', 'failed'), // failed and not listed: agrees
        entry('8', 'pending', '3'), // open, not listed: only in the ledger
        entry('7', 'success', '499.00', nextDay), // another day, but listed: matched
        entry('10', 'success', '1', nextDay), // another day, not listed: not compared
      ],
      [day],
    );
    // The registry's side first, then the ledger's lists, each in the ledger's order.
    expect(findings.map(brief)).toEqual([
      ['only-in-registry', '9', null],
      ['only-in-ledger', '5', 'success'],
      ['only-in-ledger', '8', 'pending'],
      ['different', '2', 'success'],
      ['different', '3', 'failed'],
      ['different', '4', 'unknown'],
    ]);
    expect(findings[0]).toEqual({
      list: 'only-in-registry',
      transactionId: '9',
      date: day,
      account: 'acct-9',
      registryAmount: '1.50',
      ledgerAmount: null,
      registryState: 'paid',
      ledgerState: null,
    });
    expect(agreed).toBe(2);
    expect(tallies).toEqual({
      'only-in-registry': { count: 1, registrySum: '1.50', ledgerSum: '0' },
      'only-in-ledger': { count: 2, registrySum: '0', ledgerSum: '13.25' },
      different: { count: 3, registrySum: '1498.00', ledgerSum: '1497.00' },
      'dated-another-day': { count: 0, registrySum: '0', ledgerSum: '0' },
    });
    expect(registryTableLines([findings[0]!, findings[3]!], { style: plainStyle }, en).lines).toMatchInlineSnapshot(`
      [
        "+----------------------+---------------+------------+---------+-----------------+---------------+----------------+--------------+",
        "| List                 | TransactionID | Date       | Account | Registry amount | Ledger amount | Registry state | Ledger state |",
        "| only in the registry | 9             | 2026-11-21 | acct-9  | 1.50            | -             | paid           | -            |",
        "| different            | 2             | 2026-11-21 | acct-2  | 500.00          | 499.00        | paid           | success      |",
        "+----------------------+---------------+------------+---------+-----------------+---------------+----------------+--------------+",
      ]
    `);
  });

  it('rows dated outside the compared days are never agreeing: listed apart, with the ledger side when it matched', () => {
    const yesterday = '2026-11-20';
    const { findings, registryDays, agreed, tallies } = compared(
      [
        row('1', '499.00', 1),
        { ...row('2', '499.00', 2), date: yesterday },
        { ...row('3', '7.50', 3), date: yesterday },
        row('4', '1.00', 4),
      ],
      // 2 matches a payment of the day at the same amount: it would agree, were it not dated the day before.
      [entry('1', 'success'), entry('2', 'success')],
      [day],
    );
    expect(registryDays).toEqual([yesterday, day]);
    expect(findings.map((finding) => [finding.list, finding.transactionId])).toEqual([
      ['only-in-registry', '4'],
      ['dated-another-day', '2'],
      ['dated-another-day', '3'],
    ]);
    expect(findings[1]).toEqual({
      list: 'dated-another-day',
      transactionId: '2',
      date: yesterday,
      account: 'acct-2',
      registryAmount: '499.00',
      ledgerAmount: '499.00',
      registryState: 'paid',
      ledgerState: 'success',
    });
    expect(findings[2]).toMatchObject({ ledgerAmount: null, ledgerState: null, registryAmount: '7.50' });
    expect(agreed).toBe(1);
    expect(tallies['dated-another-day']).toEqual({ count: 2, registrySum: '506.50', ledgerSum: '499.00' });
    expect(registryTableLines([findings[1]!], { style: plainStyle }, ru).lines[2]).toBe(
      '| за другой день | 2             | 2026-11-20 | acct-2 | 499,00          | 499,00          | оплачен             | успех               |',
    );
  });

  it('rows no payment matched are listed with their TransactionIDs exactly as written (012 is not 12)', () => {
    const ids = [
      '012',
      '12',
      '0',
      '9223372036854775807',
      '12345678901234567890',
      '123456789012345678901',
      'ab-1',
      'ИД7',
    ];
    const { findings, agreed } = compared(
      ids.map((id, n) => row(id, '1.00', n + 1)),
      [entry('12', 'success', '1.00')],
      [day],
    );
    expect(agreed).toBe(1);
    expect(findings.map((finding) => finding.transactionId)).toEqual(ids.filter((id) => id !== '12'));
  });

  it('unmatched rows give back their accounts and amounts exactly; a TransactionID matches one payment', () => {
    const rows = [
      { ...row('1', '1500', 1), account: 'Иванов Пётр' },
      { ...row('2', '0.50', 2), account: 'a b\t"c"' },
      { ...row('3', '123456789012345678901234.567', 3), account: '' },
      { ...row('4', '7', 4), account: '😀 ёлка', date: '2026-11-22' },
      { ...row('5', '8.00', 5), account: 'taken' },
      { ...row('6', '9', 6), account: `${'x'.repeat(300)}ё` },
      { ...row('7', '9', 7), account: `${'x'.repeat(299)}ё` },
      { ...row('8', '9', 8), account: 'ё'.repeat(200) },
    ];
    // The ledger gives 5 twice (two gateways' payments): the first matches the row, the second is the ledger's alone.
    const { findings, registryDays, agreed } = compared(
      rows,
      [entry('5', 'success', '8.00'), { ...entry('5', 'success', '8.00'), account: 'other' }],
      [day, '2026-11-22'],
    );
    expect(registryDays).toEqual([day, '2026-11-22']);
    expect(agreed).toBe(1);
    const left = findings.filter((finding) => finding.list === 'only-in-registry');
    expect(
      left.map(({ transactionId, date, account, registryAmount }) => [transactionId, date, account, registryAmount]),
    ).toEqual(rows.filter((r) => r.transactionId !== '5').map((r) => [r.transactionId, r.date, r.account, r.amount]));
    expect(findings.filter((finding) => finding.list !== 'only-in-registry')).toEqual([
      {
        list: 'only-in-ledger',
        transactionId: '5',
        date: day,
        account: 'other',
        registryAmount: null,
        ledgerAmount: '8.00',
        registryState: null,
        ledgerState: 'success',
      },
    ]);
  });

  it('a TransactionID listed twice is a registry that contradicts itself, both lines named', async () => {
    const path = fileOf(`7\t${day}\t\ta\t1.00\n1\t${day}\t\ta\t5\n\n2\t${day}\t\ta\t5\n1\t${day}\t\ta\t5\n`);
    const comparison = RegistryComparison.open();
    const failure = await loadRegistry(comparison, path, tsv)
      .then(
        () => undefined,
        (error: Error) => error,
      )
      .finally(() => comparison.close());
    expect(failure?.message).toBe(
      `registry ${path} line 5: TransactionID 1 is listed again (first on line 2); the registry contradicts itself`,
    );
  });
});
