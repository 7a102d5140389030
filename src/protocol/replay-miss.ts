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
export const askedText = (miss: ReplayMiss): string =>
  `${miss.operation} (${miss.fields.map(([name, value]) => `${name}=${value}`).join(', ')})`;
