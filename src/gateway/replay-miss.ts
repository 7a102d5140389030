import { UsageError } from '../errors.js';
import { t } from '../i18n/current.js';

/** What the embedded replay (--replay) says of a request it refused because no recording answers it. */
export interface ReplayMiss {
  /** The RequestType and the fields the replay matches on (docs/replay.md, "Matching"). */
  operation: string;
  fields: readonly (readonly [string, string])[];
  /** A Status of a TransactionID whose Payment this replay answered with no recording: never made in it. */
  paymentUnanswered: boolean;
}

/** Asks the replay in this process whether it refused the request of this type and TransactionID just now. */
export type ReplayMisses = (operation: string, transactionId: string) => ReplayMiss | undefined;

/** `Payment (Service=201, Account=7011234567, …)`: what had no recording, in no language. */
const askedText = (miss: ReplayMiss): string =>
  `${miss.operation} (${miss.fields.map(([name, value]) => `${name}=${value}`).join(', ')})`;

/**
 * A request no recording of the replay answers: nothing left this machine and nothing was
 * made, so it is exit 2, as for input that lacks a piece (the recordings are the command's
 * input), never an unknown outcome.
 */
export class ReplayMissError extends UsageError {
  override name = 'ReplayMissError';
  /** What had no recording (askedText). */
  readonly asked: string;
  readonly paymentUnanswered: boolean;
  constructor(miss: ReplayMiss) {
    const said = t().replay;
    const asked = askedText(miss);
    const meaning = miss.operation === 'Payment' ? 'payment' : miss.paymentUnanswered ? 'neverMade' : 'lookUp';
    super(said.noRecording(asked, meaning), { hint: said.noRecordingHint });
    this.asked = asked;
    this.paymentUnanswered = miss.paymentUnanswered;
  }
}
