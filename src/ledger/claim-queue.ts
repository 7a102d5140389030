import type { Intent, IntentOptions, IntentResult } from './ledger.js';

/** One intent waiting for its atomic check-and-record, with its caller's promise. */
export interface Claim {
  readonly intent: Intent;
  readonly options: IntentOptions;
  resolve(result: IntentResult): void;
  reject(error: unknown): void;
}

/** Intents checked and recorded in one step, a batch at a time: claims made while a batch holds
 * the ledger's lock go together under the next hold, with one reading of the ledger for all. */
export class ClaimQueue {
  private waiting: Claim[] = [];
  private running = false;

  /** `settle` answers every claim of the batch; a claim it leaves unanswered gets its error.
   * `gather`, when given, is awaited before a batch is taken, so claims made meanwhile join it. */
  constructor(
    private readonly settle: (batch: readonly Claim[]) => Promise<void>,
    private readonly gather?: () => Promise<void>,
  ) {}

  submit(intent: Intent, options: IntentOptions): Promise<IntentResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ intent, options, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.waiting.length > 0) {
      if (this.gather !== undefined) await this.gather();
      const batch = this.waiting;
      this.waiting = [];
      try {
        await this.settle(batch);
      } catch (error) {
        // A promise answered already ignores this.
        for (const claim of batch) claim.reject(error);
      }
    }
    this.running = false;
  }
}

/** The claims' owners as one look-back: the widest reach, the accounts of all of them. */
export function lookBackOfClaims(
  claims: readonly Claim[],
): { since: Date; operator: string | undefined; accounts: string[] } | undefined {
  let since: Date | undefined;
  let operator: string | undefined;
  const accounts = new Set<string>();
  for (const { intent, options } of claims) {
    const guard = options.guard;
    if (guard === undefined) continue;
    if (since === undefined || guard.since < since) since = guard.since;
    operator ??= guard.operator;
    accounts.add(intent.account);
  }
  return since === undefined ? undefined : { since, operator, accounts: [...accounts] };
}

/** Claims by gateway and agent, in their order: the desk's rules weigh one owner's payments. */
export function groupedByOwner(claims: readonly Claim[]): Claim[][] {
  const groups = new Map<string, Claim[]>();
  for (const claim of claims) {
    const key = `${claim.intent.gateway} ${claim.intent.agentId}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [claim]);
    else group.push(claim);
  }
  return [...groups.values()];
}
