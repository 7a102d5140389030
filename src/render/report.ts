import type { CsvColumn } from './csv.js';

// The report in its formats, pure: CSV and JSON lines here, the table in report-table.ts. Each shows the
// groups, then a total line per currency.

/** What a report can group by (`--by`); currency is a key whether asked for or not. */
export const reportDimensions = ['service', 'operator', 'approvedBy', 'currency', 'state'] as const;
export type ReportDimension = (typeof reportDimensions)[number];

export interface ReportGroup {
  /** The group's values of the dimensions asked for, in their order (currency among them or not). */
  keys: Partial<Record<ReportDimension, string | null>>;
  currency: string;
  count: number;
  /** The exact sum of the group's amounts, as many decimals as the most precise of them. */
  sum: string;
}

export interface ReportTotal {
  currency: string;
  count: number;
  sum: string;
}

export interface ReportLines {
  groups: readonly ReportGroup[];
  totals: readonly ReportTotal[];
  dimensions: readonly ReportDimension[];
}

const reportHeadings: Record<ReportDimension, string> = {
  service: 'Service',
  operator: 'Operator',
  approvedBy: 'Approved by',
  currency: 'Currency',
  state: 'State',
};

/** The columns: the dimensions asked for, then Currency (unless asked for among them), Count and Sum. */
export function keyColumns(dimensions: readonly ReportDimension[]): ReportDimension[] {
  return dimensions.includes('currency') ? [...dimensions] : [...dimensions, 'currency'];
}

export const keyOf = (group: ReportGroup, dimension: ReportDimension) =>
  dimension === 'currency' ? group.currency : group.keys[dimension];

/** A report line as CSV and JSON write it: a group, or a currency's total. */
export type ReportLine = { kind: 'group'; group: ReportGroup } | { kind: 'total'; total: ReportTotal };

// The column where a total row says "Total": the first key column other than Currency. Grouped by currency
// alone there is none, and the table and CSV show no total rows (JSON always does).
const totalLabelColumn = (columns: readonly ReportDimension[]): number =>
  columns.findIndex((dimension) => dimension !== 'currency');

/** The lines in order: the groups, then the totals (in a table or CSV, only when a total row can say so). */
export function reportLines(
  { groups, totals, dimensions }: ReportLines,
  options: { labelledTotals: boolean },
): ReportLine[] {
  const withTotals = !options.labelledTotals || totalLabelColumn(keyColumns(dimensions)) !== -1;
  return [
    ...groups.map((group) => ({ kind: 'group' as const, group })),
    ...(withTotals ? totals.map((total) => ({ kind: 'total' as const, total })) : []),
  ];
}

/** A key cell of a total row in a table or CSV: its currency, "Total" in the label column, else empty. */
export function totalKeyCell(
  total: ReportTotal,
  columns: readonly ReportDimension[],
  index: number,
  label = 'Total',
): string {
  if (columns[index] === 'currency') return total.currency;
  return index === totalLabelColumn(columns) ? label : '';
}

// The CSV columns: keys, Count, Sum. A total row has "Total" in its label column and its currency; Service and
// Operator are spreadsheet-safe text.
export function reportCsvColumns(dimensions: readonly ReportDimension[]): CsvColumn<ReportLine>[] {
  const columns = keyColumns(dimensions);
  return [
    ...columns.map(
      (dimension, index): CsvColumn<ReportLine> => ({
        header: reportHeadings[dimension],
        kind: dimension === 'service' || dimension === 'operator' || dimension === 'approvedBy' ? 'text' : 'id',
        value: (line) =>
          line.kind === 'group' ? keyOf(line.group, dimension) : totalKeyCell(line.total, columns, index),
      }),
    ),
    {
      header: 'Count',
      kind: 'number',
      value: (line) => String(line.kind === 'group' ? line.group.count : line.total.count),
    },
    { header: 'Sum', kind: 'number', value: (line) => (line.kind === 'group' ? line.group.sum : line.total.sum) },
  ];
}

// A report line as one JSON object (docs/commands.md#report): kind group or total, the dimensions asked for,
// currency, count, exact sum, and from/until as ISO instants (from null: since the ledger began).
export function reportJsonLine(line: ReportLine, range: { from: Date | null; until: Date }): string {
  const bounds = { from: range.from?.toISOString() ?? null, until: range.until.toISOString() };
  if (line.kind === 'total')
    return JSON.stringify({
      kind: 'total',
      currency: line.total.currency,
      count: line.total.count,
      sum: line.total.sum,
      ...bounds,
    });
  const { keys, currency, count, sum } = line.group;
  return JSON.stringify({ kind: 'group', ...keys, currency, count, sum, ...bounds });
}
