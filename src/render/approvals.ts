import Table from 'cli-table3';
import { type Catalogue, en } from '../i18n/en.js';
import type { ApprovalRequest } from '../ledger/postgres/approvals.js';
import { localTimeText } from './receipt.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';
import { tableChars } from './table-chars.js';

/** `agentpay approvals` as a table: a request a row, what it would pay, why it needs a second person, who asked. */
export function approvalsTable(requests: readonly ApprovalRequest[], style: Style, said: Catalogue = en): string {
  const head = said.approvals.columns;
  const table = new Table({
    head: [head.transactionId, head.purchase, head.needs, head.requestedBy, head.expires].map((text) =>
      style.heading(text),
    ),
    style: { head: [], border: [] },
    chars: tableChars(style.enabled),
  });
  for (const request of requests) {
    const { amount, currency, account, service } = request;
    const expires = localTimeText(request.expiresAt, -new Date(request.expiresAt).getTimezoneOffset(), said);
    // The account, the service and who asked came from people: shown through the one sanitizer.
    table.push([
      request.transactionId,
      shownText(said.approvals.purchase(said.amount(amount), currency, account, service)),
      request.needs.map((need) => said.approvals.needs[need] ?? shownText(need)).join(', '),
      shownText(request.requestedBy),
      expires,
    ]);
  }
  return table.toString();
}
