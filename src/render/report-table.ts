import { type Catalogue, en } from '../i18n/en.js';
import {
  keyColumns,
  keyOf,
  type ReportDimension,
  type ReportGroup,
  type ReportLines,
  reportLines,
  totalKeyCell,
} from './report.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';
import { renderTable } from './table.js';

/** The report as a table: a row per group, then a Total row per currency (totalLabelColumn says Total). */
export function reportTable(report: ReportLines, style: Style, said: Catalogue = en, width?: number): string {
  const { dimensions } = report;
  const head = said.report.head;
  // A state is a word of the catalogue; the other keys are data (ids, names, codes) shown as they are.
  const keyCell = (group: ReportGroup, dimension: ReportDimension) => {
    const key = keyOf(group, dimension);
    if (key === null || key === undefined) return '-';
    return dimension === 'state' ? (said.states[key as keyof Catalogue['states']] ?? key) : key;
  };
  const columns = keyColumns(dimensions);
  const table: string[][] = [];
  for (const line of reportLines(report, { labelledTotals: true })) {
    if (line.kind === 'group') {
      const { group } = line;
      // Service and operator came from a gateway or a person: shown through shownText.
      table.push([
        ...columns.map((dimension) => shownText(keyCell(group, dimension))),
        said.number(String(group.count)),
        said.amount(group.sum),
      ]);
    } else {
      const { total } = line;
      const cells = columns.map((_, index) => shownText(totalKeyCell(total, columns, index, said.report.total)));
      table.push(
        [...cells, said.number(String(total.count)), said.amount(total.sum)].map((cell) => style.strong(cell)),
      );
    }
  }
  const headings = [
    ...columns.map((dimension) => ({ heading: head[dimension] })),
    { heading: head.count, align: 'right' as const, whole: true },
    { heading: head.sum, align: 'right' as const, whole: true },
  ];
  return renderTable(headings, table, { style, width }).lines.join('\n');
}
