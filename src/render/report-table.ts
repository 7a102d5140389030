import Table from 'cli-table3';
import { keyColumns, keyOf, type ReportLines, reportHeadings, reportLines, totalKeyCell } from './report.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';
import { tableChars } from './table-chars.js';

/** The report as a table: a row per group, then a Total row per currency (totalLabelColumn says Total). */
export function reportTable(report: ReportLines, style: Style): string {
  const { dimensions } = report;
  const columns = keyColumns(dimensions);
  const table = new Table({
    head: [...columns.map((dimension) => reportHeadings[dimension]), 'Count', 'Sum'].map((text) => style.heading(text)),
    colAligns: [...columns.map(() => 'left' as const), 'right', 'right'],
    style: { head: [], border: [] },
    chars: tableChars(style.enabled),
  });
  for (const line of reportLines(report, { labelledTotals: true })) {
    if (line.kind === 'group') {
      const { group } = line;
      // Service and operator came from a gateway or a person: shown through shownText.
      table.push([...columns.map((dimension) => shownText(keyOf(group, dimension) ?? '-')), String(group.count), group.sum]);
    } else {
      const { total } = line;
      table.push([...columns.map((_, index) => shownText(totalKeyCell(total, columns, index))), String(total.count), total.sum].map((cell) => style.strong(cell)));
    }
  }
  return table.toString();
}
