import Table from 'cli-table3';
import { type Catalogue, en } from '../i18n/en.js';
import type { OperatorRole } from '../ledger/postgres/roles.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';
import { tableChars } from './table-chars.js';

/** `ledger operators` as a table: a role a row, whether it may approve and log in. */
export function operatorsTable(roles: readonly OperatorRole[], style: Style, said: Catalogue = en): string {
  const head = said.ledger.operatorColumns;
  const table = new Table({
    head: [head.role, head.supervisor, head.login].map((text) => style.heading(text)),
    style: { head: [], border: [] },
    chars: tableChars(style.enabled),
  });
  const yesNo = (value: boolean) => (value ? said.yes : said.no);
  // A role's name is the database's: shown through the one sanitizer like any outside text.
  for (const role of roles) table.push([shownText(role.role), yesNo(role.supervisor), yesNo(role.canLogin)]);
  return table.toString();
}
