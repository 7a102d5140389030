// How a provider's registry (реестр) is laid out (docs/registries.md): delimiter, header, columns, dates,
// amounts, character set, total line. The built-in layouts are written here; mapping-file.ts validates others.
export type ColumnRef = number | string;

export interface RegistryLayout {
  /** How messages name it: "tsv", "csv", or the mapping file's path. */
  name: string;
  delimiter: string;
  /** The quote character, or false when cells are never quoted (a tab-separated registry). */
  quote: string | false;
  /** Whether the first row (after skipLines) names the columns. */
  header: boolean;
  /** Lines before the rows (or the header): a title, the provider's name. */
  skipLines: number;
  /** A TextDecoder label: utf-8, windows-1251, koi8-r. */
  encoding: string;
  decimal: 'point' | 'comma';
  /** Date patterns (dates.ts), tried in order. */
  dates: string[];
  /** A column from 1, or a header's name. */
  columns: {
    transactionId: ColumnRef;
    date: ColumnRef;
    time?: ColumnRef | undefined;
    account: ColumnRef;
    amount: ColumnRef;
  };
  /** The word a closing line starts with, followed by the rows' count and the sum of their amounts. */
  total?: string | undefined;
}

export const builtInLayouts: Record<string, RegistryLayout> = {
  /** `TransactionID<TAB>date<TAB>time<TAB>account<TAB>amount`, no header, an optional `Total: <count> <sum>` line. */
  tsv: {
    name: 'tsv',
    delimiter: '\t',
    quote: false,
    header: false,
    skipLines: 0,
    encoding: 'utf-8',
    decimal: 'point',
    dates: ['YYYY-MM-DD', 'DD.MM.YYYY'],
    columns: { transactionId: 1, date: 2, time: 3, account: 4, amount: 5 },
    total: 'Total:',
  },
  /** RFC 4180 with the header `TransactionID,Date,Time,Account,Amount` (Time may be left out). */
  csv: {
    name: 'csv',
    delimiter: ',',
    quote: '"',
    header: true,
    skipLines: 0,
    encoding: 'utf-8',
    decimal: 'point',
    dates: ['YYYY-MM-DD', 'DD.MM.YYYY'],
    columns: { transactionId: 'TransactionID', date: 'Date', time: 'Time', account: 'Account', amount: 'Amount' },
  },
};
