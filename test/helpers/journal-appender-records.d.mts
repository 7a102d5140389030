import type { JournalRecord, OutcomeRecord } from '../../src/ledger/records.js';

export declare const appenderOwner: { gateway: string; agentId: string };
export declare function appenderOutcome(
  transactionId: string,
  state: 'success' | 'failed' | 'pending',
  at: string,
): OutcomeRecord;
export declare function appenderTransactions(seed: number, firstId: number, count: number): JournalRecord[][];
export declare function expectedOf(records: readonly JournalRecord[]): { state: string; open: boolean };
