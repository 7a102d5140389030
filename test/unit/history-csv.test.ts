import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { TransactionView } from '../../src/protocol/transaction-view.js';
import { csvHeader, csvRow } from '../../src/render/csv.js';
import { type HistoryCsvRow, historyCsvColumns } from '../../src/render/history-csv.js';

const view: TransactionView = {
  transactionId: '9007199254740993',
  requestId: '18446744073709551615',
  type: 'Payment',
  status: '10',
  state: 'success',
  message: 'Успех',
  service: '101',
  account: 'player-42',
  amount: '2497.00',
  currency: 'KZT',
  exchangeRate: '1',
  serviceCurrency: 'KZT',
};

const row = (fields: Partial<HistoryCsvRow> = {}, viewFields: Partial<TransactionView> = {}): HistoryCsvRow => ({
  at: '2026-11-22T08:00:00.000Z',
  gateway: 'sandbox',
  agentId: '1000',
  view: { ...view, ...viewFields },
  recordedBy: { operator: 'анна', host: 'desk-1' },
  voucher: '550 GameCoins',
  invoiceId: '5002',
  ...fields,
});

const csvOf = (rows: HistoryCsvRow[]) =>
  csvHeader(historyCsvColumns) + rows.map((one) => csvRow(historyCsvColumns, one)).join('');

describe('history as CSV', () => {
  it('a header row, every column whatever the ledger, Long ids and amounts as written, Cyrillic as is; read back the same', () => {
    const [header, first, second] = parse(
      csvOf([row(), row({ recordedBy: undefined, voucher: undefined, invoiceId: null }, { requestId: null })]),
    ) as string[][];
    expect(header).toEqual([
      'When',
      'Gateway',
      'AgentID',
      'Operator',
      'Host',
      'TransactionID',
      'State',
      'Status',
      'Service',
      'Account',
      'Amount',
      'Currency',
      'InvoiceID',
      'Voucher',
      'RequestID',
      'Message',
      'RequestedBy',
      'ApprovedBy',
    ]);
    expect(first).toEqual([
      '2026-11-22T08:00:00.000Z',
      'sandbox',
      '1000',
      'анна',
      'desk-1',
      '9007199254740993',
      'success',
      '10',
      '101',
      'player-42',
      '2497.00',
      'KZT',
      '5002',
      '550 GameCoins',
      '18446744073709551615',
      'Успех',
      '',
      '',
    ]);
    // What the ledger does not know is an empty cell.
    expect([second?.[3], second?.[4], second?.[12], second?.[13], second?.[14]]).toEqual(['', '', '', '', '']);
  });

  it('what a gateway or a person wrote never runs as a formula: account, voucher, message, an amount that is not a decimal', () => {
    const [, cells] = parse(
      csvOf([
        row({ voucher: '=HYPERLINK("http://x","win")' }, { account: '=1+1', message: '@SUM(A1)', amount: '-1500+cmd' }),
      ]),
    ) as string[][];
    expect(cells?.[9]).toBe("'=1+1");
    expect(cells?.[10]).toBe("'-1500+cmd");
    expect(cells?.[13]).toBe('\'=HYPERLINK("http://x","win")');
    expect(cells?.[15]).toBe("'@SUM(A1)");
  });
});
