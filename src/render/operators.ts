import { type Catalogue, en } from '../i18n/en.js';
import type { OperatorRole } from '../ledger/team-ledger.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';
import { renderTable } from './table.js';

/** `ledger operators` as a table: a role a row, whether it may approve and log in. */
export function operatorsTable(
  roles: readonly OperatorRole[],
  style: Style,
  said: Catalogue = en,
  width?: number,
): string {
  const head = said.ledger.operatorColumns;
  const columns = [head.role, head.supervisor, head.login].map((heading) => ({ heading }));
  const yesNo = (value: boolean) => (value ? said.yes : said.no);
  // A role's name is the database's: shown through the one sanitizer like any outside text.
  const rows = roles.map((role) => [shownText(role.role), yesNo(role.supervisor), yesNo(role.canLogin)]);
  return renderTable(columns, rows, { style, width }).lines.join('\n');
}
