import { LedgerUnreachableError } from '../../errors.js';
import type { Query, Row } from '../sql/rows.js';
import { type LedgerConnection, reasonOf } from './connect.js';
import { intentRefusalOf } from './refusals.js';

/** The connection's turn: a query is sent only once the one before was answered. node-postgres
 * would queue them itself, but its next major refuses overlapping queries, and a transaction
 * must not take in another caller's statement. */
export class ConnectionTurn {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    readonly connection: LedgerConnection,
    private readonly shown: string,
  ) {}

  /** Work on the connection when its turn comes. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** A query whose failure is the ledger's (exit 4), saying what it means for the payment. */
  readonly query: Query = (text, values, consequence) => this.run(() => this.queryNow(text, values, consequence));

  /** A query sent now, inside a turn already held. */
  readonly queryNow: Query = async (text, values, consequence) => {
    try {
      return (await this.connection.client.query(text, values)).rows as Row[];
    } catch (error) {
      const refused = intentRefusalOf(error);
      if (refused !== undefined) throw refused;
      throw this.unreachable(error, consequence);
    }
  };

  /** The failure as the ledger's, with the server's error as its cause (its SQLSTATE says a refusal). */
  unreachable(error: unknown, consequence?: string): LedgerUnreachableError {
    return new LedgerUnreachableError(this.shown, reasonOf(this.connection.lost.error ?? error), {
      cause: error,
      ...(consequence ? { consequence } : {}),
    });
  }

  /** Sent in the turn, as pg throws it: the fallback decides what a failure means. */
  raw(text: string, values?: unknown[]): Promise<unknown> {
    return this.run(() => this.connection.client.query(text, values));
  }
}
