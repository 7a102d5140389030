import { closestName } from '../../../closest-name.js';
import { forbiddenCharacterText } from '../../../options/purchase.js';
import { forbiddenCharacterIn } from '../../../protocol/field-bounds.js';
import type { BadRow } from '../../../render/bulk.js';
import { t } from '../../../run-scope.js';
import { linesOf } from '../../../text-lines.js';
import { parseJsonRow } from './json-row.js';
import type { OrderBatches } from './order-batches.js';
import { type OrderColumn, orderColumns, shownName } from './order-cells.js';
import { orderOf } from './order-row.js';
import type { OrderText } from './order-text.js';

export async function readJsonLines(
  input: OrderText,
  decimalComma: boolean,
  rows: OrderBatches,
  problems: BadRow[],
): Promise<void> {
  let line = 0;
  for await (const lines of linesOf(input.pieces(), 'utf8')) {
    for (const text of lines) {
      line++;
      if (text.trim() === '') continue;
      let parsed: ReturnType<typeof parseJsonRow>;
      try {
        parsed = parseJsonRow(text);
      } catch {
        problems.push({ line, column: undefined, message: notJsonMessage(text) });
        continue;
      }
      const { value, givenTwice } = parsed;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        problems.push({ line, column: undefined, message: t().bulk.cell.notObject });
        continue;
      }
      if (givenTwice !== undefined) {
        problems.push({ line, column: shownName(givenTwice), message: t().bulk.cell.fieldTwice });
        continue;
      }
      const cells: Partial<Record<OrderColumn, string>> = {};
      for (const [name, cell] of Object.entries(value)) {
        if (!(orderColumns as readonly string[]).includes(name))
          problems.push({
            line,
            column: shownName(name),
            message: t().bulk.cell.unknownField(orderColumns.join(', '), closestName(name, orderColumns)),
          });
        else if (typeof cell !== 'string') problems.push({ line, column: name, message: t().bulk.cell.notString });
        else cells[name as OrderColumn] = cell;
      }
      const row = orderOf(line, cells, problems, decimalComma);
      if (row) rows.push(row);
      await rows.drain();
    }
  }
}

/** Why a line is not JSON: a control character JSON does not allow unescaped (a NUL), where it is; else not an object. */
function notJsonMessage(text: string): string {
  const forbidden = forbiddenCharacterIn(text);
  // A tab may be white space between JSON's tokens.
  return forbidden === undefined || forbidden.kind !== 'control' || forbidden.code === 0x09
    ? t().bulk.cell.notObject
    : forbiddenCharacterText(forbidden);
}
