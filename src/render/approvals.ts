import { type Catalogue, en } from '../i18n/en.js';
import type { ApprovalRequest } from '../ledger/team-ledger.js';
import { localTimeText } from './receipt.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';
import { renderTable } from './table.js';

/** What a request would pay, and where: its amount, account, service, voucher, gateway and agent. */
function purchaseOf(request: ApprovalRequest, said: Catalogue): string {
  const { amount, currency, account, service, voucher } = request;
  const purchase = said.approvals.purchase(said.amount(amount), currency, account, service);
  return voucher === null ? purchase : `${purchase}, ${said.approvals.voucher(voucher)}`;
}

const whereOf = (request: ApprovalRequest, said: Catalogue) => said.approvals.where(request.gateway, request.agentId);

/** One request in a line, as a decision or a refusal names it (outside text through the sanitizer). */
export function requestText(request: ApprovalRequest, said: Catalogue = en): string {
  return shownText(
    `${request.transactionId}: ${purchaseOf(request, said)}, ${whereOf(request, said)}, ${said.approvals.askedBy(request.requestedBy)}`,
  );
}

/** `agentpay approvals` as a table: a request a row, what it would pay and where, why it needs a second person, who asked. */
export function approvalsTable(
  requests: readonly ApprovalRequest[],
  style: Style,
  said: Catalogue = en,
  width?: number,
): string {
  const head = said.approvals.columns;
  const headings = [head.transactionId, head.purchase, head.where, head.needs, head.requestedBy, head.expires];
  const table: string[][] = [];
  for (const request of requests) {
    const expires = localTimeText(request.expiresAt, -new Date(request.expiresAt).getTimezoneOffset(), said);
    // The account, the service and who asked came from people: shown through the one sanitizer.
    table.push([
      request.transactionId,
      shownText(purchaseOf(request, said)),
      shownText(whereOf(request, said)),
      request.needs.map((need) => said.approvals.needs[need] ?? shownText(need)).join(', '),
      shownText(request.requestedBy),
      expires,
    ]);
  }
  const columns = headings.map((heading, index) => ({ heading, whole: index === 0 }));
  return renderTable(columns, table, { style, width }).lines.join('\n');
}
