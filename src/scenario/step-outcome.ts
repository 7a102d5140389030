import type { ExitCodeValue } from '../errors.js';
import type { AssertionResult } from './assertions.js';
import type { StepKind, StepOptions } from './step-schema.js';

/** A step as the runner hands it to an executor (steps.ts), and what it comes to. */
export interface StepRun {
  kind: StepKind;
  /** Placeholders filled in; for status and wait, txn-id defaults to the case's last payment. */
  options: StepOptions;
  credentials: { agentId?: string | undefined; password?: string | undefined } | undefined;
  /** repeat-pay: what the payment it repeats left for that. */
  replay: unknown;
  /** From 1; more when --retry tries the step again. */
  attempt?: number;
  /** Kept across attempts of one step: a pay step's TransactionID, so a retry is the safe retry. */
  kept?: Record<string, unknown>;
}

export interface StepError {
  exitCode: ExitCodeValue;
  type: string;
  message: string;
}

export interface StepResult {
  /** What the step saw, for assertions, placeholders and --json: the transaction, the raw envelope, ... */
  record: Record<string, unknown>;
  /** pay and repeat-pay: what a repeat-pay of this step needs to send the same Payment again. */
  replay?: unknown;
  /** Set when the step could not do its job (unreachable, not understood, refused input). */
  error?: StepError;
  /** An exit code the step adds whatever its assertions say: 3 for a payment whose outcome is unknown. */
  exitCode?: ExitCodeValue;
}

/** A step as messages name it: its number, kind and id. */
export type StepPlace = Pick<StepOutcome, 'number' | 'kind' | 'id'>;

export type StepExecutor = (step: StepRun) => Promise<StepResult>;

export type Outcome = 'passed' | 'failed' | 'error' | 'skipped';

export interface Failure extends AssertionResult {
  /** One line naming the case, the step, the path, the expected and the actual value. */
  message: string;
}

export interface StepOutcome {
  number: number;
  kind: StepKind;
  id: string | undefined;
  /** The step's `name`, or one made from its options (in English: reports and --json keep it). */
  name: string;
  /** The options it was made from, when the file gave no name: the screen says it in its language. */
  nameFrom: StepOptions | undefined;
  /** `step 2 (pay "first")`: how messages name it. */
  label: string;
  outcome: Outcome;
  ms: number;
  record: Record<string, unknown> | undefined;
  checks: number;
  failures: Failure[];
  /** `message` names the case and step; `reason` is the error's own message. */
  error: (StepError & { reason: string }) | undefined;
  /** How many times it ran: 1, more under --retry, 0 when skipped. */
  attempts: number;
  /** Why each attempt but the last was tried again. */
  retried: string[];
}
