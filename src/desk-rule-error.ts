import { AgentpayError, ExitCode } from './errors.js';

/** The desk's rules a purchase can be refused by, as --json names them (docs/desk-safety.md). */
export type DeskRule = 'duplicate' | 'limit' | 'approval' | 'shift';

/** A purchase the desk's rules refused, before anything was sent (exit 7): a script can tell it
 * from a typo (2). The same in both ledgers, whether the profile's rule or the database's. */
export class DeskRuleRefusedError extends AgentpayError {
  override name = 'DeskRuleRefusedError';
  readonly rule: DeskRule;
  constructor(rule: DeskRule, message: string, options: { cause?: unknown; hint?: string } = {}) {
    super(message, ExitCode.deskRule, options);
    this.rule = rule;
  }
}
