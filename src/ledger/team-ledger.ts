import type { Intent, Owner } from './records.js';
import type { StoredZReport, ZReportContent } from './z-report.js';

/** What only a ledger that tells people apart can do (docs/desk-safety.md): approvals, shifts and
 * the desk's policy. The PostgreSQL ledger offers it as `ledger.team`; a ledger file has none. */
export interface TeamLedger {
  readonly approvals: Approvals;
  readonly shifts: Shifts;
  /** The rules the database applies to every intent, read once a command (`ledger policy` sets them). */
  policy(): Promise<LedgerPolicy>;
}

/** The two-person rule: each step one call of the database's, which alone decides who may. */
export interface Approvals {
  /** The frozen purchase recorded for a supervisor; nothing is sent. Returns when the request expires. */
  request(intent: Intent, needs: readonly string[], ttlMs: number): Promise<string>;
  /** A supervisor's decision on one request; the request as it now stands. */
  decide(request: ApprovalKey, decision: 'approved' | 'declined', reason: string | undefined): Promise<ApprovalRequest>;
  /** Every request under this TransactionID, on any gateway or agent, oldest first. */
  byTransactionId(transactionId: string): Promise<ApprovalRequest[]>;
  /** The requests that await a decision and have not expired, by the database's clock, oldest first. */
  open(): Promise<ApprovalRequest[]>;
  /** The request for this TransactionID of this gateway and agent; undefined when there is none. */
  find(request: ApprovalKey): Promise<ApprovalRequest | undefined>;
  /** The approved request turned into its intent, once: 'used' when it was taken already. */
  use(request: ApprovalKey): Promise<ApprovedPurchase | 'used'>;
}

/** Shifts and their Z-reports, chained by hash (z-report.ts). */
export interface Shifts {
  /** The connected role's open shift, if it has one. */
  current(): Promise<Shift | undefined>;
  /** Opens the role's shift; refused (exit 2) while one is open. */
  open(): Promise<Shift>;
  /** The database's clock: when an X-report is made, or a shift closes. */
  now(): Promise<string>;
  /** The number and hash the next Z-report follows. */
  lastZReport(): Promise<{ number: number; hash: string } | undefined>;
  /** Stores the Z-report and closes the shift; 'raced' when it missed a payment made meanwhile. */
  close(shift: Shift, content: ZReportContent, lastTry: boolean): Promise<{ text: string; hash: string } | 'raced'>;
  /** The shift Z-report `number` closed; undefined when there is no such report. */
  ofZReport(number: number): Promise<{ operator: string; openedAt: Date; closedAt: Date } | undefined>;
  /** Every Z-report in number order, as stored. */
  zReports(): Promise<StoredZReport[]>;
  /** The role's requests since the shift opened that still await a decision or, approved, their Payment. */
  awaitingRequests(shift: Shift): Promise<string[]>;
}

export type ApprovalKey = Owner & { transactionId: string };

export interface ApprovalRequest {
  transactionId: string;
  gateway: string;
  agentId: string;
  service: string;
  account: string;
  amount: string;
  currency: string;
  invoiceId: string | null;
  voucher: string | null;
  needs: string[];
  requestedBy: string;
  requestedAt: string;
  expiresAt: string;
  decision: 'approved' | 'declined' | null;
  decidedBy: string | null;
  decidedAt: string | null;
  reason: string | null;
}

/** What `pay --approved` sends: the frozen purchase, its intent recorded with who asked and who approved. */
export interface ApprovedPurchase {
  attempt: string;
  intent: Intent;
  requestedBy: string;
  approvedBy: string;
}

export interface Shift {
  seq: string;
  operator: string;
  openedAt: string;
}

/** A team ledger's policy, set by its administrator (`ledger policy`). */
export interface LedgerPolicy {
  /** A payment above this, by currency, needs a supervisor's approval. */
  approvalOver: { currency: string; over: string; setBy: string; setAt: string }[];
  shiftsRequired: boolean;
}

export interface PolicyChange {
  approvalOver: ReadonlyMap<string, string>;
  clearApprovalOver: readonly string[];
  shiftsRequired?: boolean | undefined;
}

export interface OperatorRole {
  role: string;
  supervisor: boolean;
  canLogin: boolean;
}

/** The team ledger as its administrator reaches it (`ledger migrate`, `policy`, the operators):
 * a connection of its own, with the administrator's URL. Each refusal of the server is thrown as
 * it came, its SQLSTATE in `code` (42501: not allowed). */
export interface LedgerAdministration {
  readonly shown: string;
  /** The migrations not yet applied, under the lock of a first use; what was applied. */
  migrate(): Promise<{ version: number; name: string }[]>;
  readonly schemaVersion: number;
  policy(): Promise<LedgerPolicy>;
  /** All of the change holds, or none. */
  changePolicy(change: PolicyChange): Promise<void>;
  /** The operator roles, by name (one, when `role` is given). */
  operators(role?: string): Promise<OperatorRole[]>;
  /** Whether the cluster has a role of this name, operator or not. */
  roleExists(role: string): Promise<boolean>;
  /** A login role for one person; the password leaves this machine only as its SCRAM verifier. */
  addOperator(role: string, supervisor: boolean, password: string): Promise<void>;
  /** Removes an operator role; what it recorded keeps its name. */
  removeOperator(role: string): Promise<void>;
  close(): Promise<void>;
}
