import type { Finding, FindingList, ListTally } from '../registry/compare.js';
import type { CsvColumn } from './csv.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';
import { displayWidth } from './text-width.js';

/** `reconcile --registry`'s lists as a table, CSV columns or JSON lines, and its summary: pure string builders. */

const listNames: Record<FindingList, string> = {
  'only-in-registry': 'only in the registry',
  'only-in-ledger': 'only in the ledger',
  different: 'different',
};

const dash = (value: string | null) => value ?? '-';

/** A finding's cells for a person: the registry's and the ledger's texts shown through shownText. */
const cellsOf = (finding: Finding): string[] => [
  listNames[finding.list],
  ...[
    finding.transactionId,
    finding.date,
    finding.account,
    dash(finding.registryAmount),
    dash(finding.ledgerAmount),
    dash(finding.registryState),
    dash(finding.ledgerState),
  ].map(shownText),
];

const heading = [
  'List',
  'TransactionID',
  'Date',
  'Account',
  'Registry amount',
  'Ledger amount',
  'Registry state',
  'Ledger state',
];

const asciiBorders = { top: ['+', '-', '+', '+'], bottom: ['+', '-', '+', '+'], side: '|' };
const boxBorders = { top: ['┌', '─', '┬', '┐'], bottom: ['└', '─', '┴', '┘'], side: '│' };

/** The findings as a bordered table (ASCII without colour), one row each, in the order given. Nothing for none. */
export function registryTableLines(findings: readonly Finding[], style: Style): string[] {
  if (findings.length === 0) return [];
  const rows = findings.map(cellsOf);
  const widths = heading.map((text, column) =>
    Math.max(displayWidth(text), ...rows.map((cells) => displayWidth(cells[column]!))),
  );
  const borders = style.enabled ? boxBorders : asciiBorders;
  const rule = ([left, line, middle, right]: string[]) =>
    `${left}${widths.map((width) => line!.repeat(width + 2)).join(middle)}${right}`;
  const line = (cells: string[]) =>
    `${borders.side}${cells.map((cell, column) => ` ${cell}${' '.repeat(Math.max(0, widths[column]! - displayWidth(cell)))} `).join(borders.side)}${borders.side}`;
  return [rule(borders.top), line(heading.map((text) => style.heading(text))), ...rows.map(line), rule(borders.bottom)];
}

/** The CSV columns (render/csv.ts writes them): ids and amounts plain, the account as text a spreadsheet never runs. */
export const registryCsvColumns: readonly CsvColumn<Finding>[] = [
  { header: 'List', kind: 'id', value: (finding) => finding.list },
  { header: 'TransactionID', kind: 'id', value: (finding) => finding.transactionId },
  { header: 'Date', kind: 'id', value: (finding) => finding.date },
  { header: 'Account', kind: 'text', value: (finding) => finding.account },
  { header: 'RegistryAmount', kind: 'number', value: (finding) => finding.registryAmount },
  { header: 'LedgerAmount', kind: 'number', value: (finding) => finding.ledgerAmount },
  { header: 'RegistryState', kind: 'id', value: (finding) => finding.registryState },
  { header: 'LedgerState', kind: 'id', value: (finding) => finding.ledgerState },
];

/** One finding as a JSON line: its fields in a fixed order, `list` first. */
export function registryFindingJson(finding: Finding): string {
  const { list, transactionId, date, account, registryAmount, ledgerAmount, registryState, ledgerState } = finding;
  return JSON.stringify({
    list,
    transactionId,
    date,
    account,
    registryAmount,
    ledgerAmount,
    registryState,
    ledgerState,
  });
}

export interface RegistrySummaryInput {
  registry: string;
  rows: number;
  sum: string;
  days: readonly string[];
  agreed: number;
  tallies: Record<FindingList, ListTally>;
}

/** The summary for a person (stderr): what was compared, then each list's count and sums. */
export function registrySummaryLines(input: RegistrySummaryInput): string[] {
  const { tallies } = input;
  const days =
    input.days.length <= 3
      ? input.days.join(', ')
      : `${input.days[0]} to ${input.days.at(-1)} (${input.days.length} days)`;
  const lines = [
    `registry ${input.registry}: ${input.rows} row${input.rows === 1 ? '' : 's'}, ${input.sum}; ledger days ${days || '-'}; ${input.agreed} agree`,
  ];
  const only = (list: 'only-in-registry' | 'only-in-ledger', sum: string) =>
    `${listNames[list]}: ${tallies[list].count} (${sum})`;
  lines.push(only('only-in-registry', tallies['only-in-registry'].registrySum));
  lines.push(only('only-in-ledger', tallies['only-in-ledger'].ledgerSum));
  lines.push(
    `different: ${tallies.different.count} (registry ${tallies.different.registrySum}, ledger ${tallies.different.ledgerSum})`,
  );
  return lines;
}
