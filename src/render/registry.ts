import type { Catalogue } from '../i18n/en.js';
import type { Finding, FindingList, ListTally } from '../registry/compare.js';
import type { CsvColumn } from './csv.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';
import { renderTable, type TableColumn } from './table.js';

/** `reconcile --registry`'s lists as a table, CSV columns or JSON lines, and its summary: pure string builders. */

/** A finding's cells for a person: the registry's and the ledger's texts shown through shownText. */
const cellsOf = (finding: Finding, said: Catalogue): string[] => [
  said.registry.lists[finding.list],
  ...[
    finding.transactionId,
    finding.date,
    finding.account,
    finding.registryAmount === null ? '-' : said.amount(finding.registryAmount),
    finding.ledgerAmount === null ? '-' : said.amount(finding.ledgerAmount),
    finding.registryState === null ? '-' : said.registry.paid,
    finding.ledgerState === null ? '-' : said.states[finding.ledgerState],
  ].map(shownText),
];

// The findings as a table in the order given, fit to `width`: when narrow the states go first, then the date.
export function registryTableLines(
  findings: readonly Finding[],
  options: { style: Style; width?: number | undefined },
  said: Catalogue,
): { lines: string[]; hidden: string[] } {
  if (findings.length === 0) return { lines: [], hidden: [] };
  const head = said.registry.head;
  const columns: TableColumn[] = [
    { heading: head.list },
    { heading: head.transactionId, whole: true },
    { heading: head.date, dropOrder: 2 },
    { heading: head.account },
    { heading: head.registryAmount, whole: true },
    { heading: head.ledgerAmount, whole: true },
    { heading: head.registryState, dropOrder: 0 },
    { heading: head.ledgerState, dropOrder: 1 },
  ];
  return renderTable(
    columns,
    findings.map((finding) => cellsOf(finding, said)),
    options,
  );
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
export function registrySummaryLines(input: RegistrySummaryInput, said: Catalogue): string[] {
  const { tallies } = input;
  const { registry } = said;
  const days =
    input.days.length <= 3
      ? input.days.join(', ')
      : registry.daySpan(input.days[0]!, input.days.at(-1)!, input.days.length);
  const sum = (list: FindingList, side: 'registrySum' | 'ledgerSum') =>
    registry.listSum(registry.lists[list], tallies[list].count, said.amount(tallies[list][side]));
  const lines = [registry.compared(input.registry, input.rows, said.amount(input.sum), days || '-', input.agreed)];
  lines.push(sum('only-in-registry', 'registrySum'), sum('only-in-ledger', 'ledgerSum'));
  const { different } = tallies;
  lines.push(
    registry.differentSums(
      registry.lists.different,
      different.count,
      said.amount(different.registrySum),
      said.amount(different.ledgerSum),
    ),
  );
  // Rows of another day exist only when --date names one day: a line for them only then.
  if (tallies['dated-another-day'].count > 0) lines.push(sum('dated-another-day', 'registrySum'));
  return lines;
}
