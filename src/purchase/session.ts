import type { GatewayClient } from '../gateway/client.js';
import type { Interrupts } from '../interrupts.js';
import type { Ledger } from '../ledger/ledger.js';
import type { Output } from '../output.js';
import type { Settings } from '../settings/resolve.js';

/**
 * What the purchase layer needs of a command's context and gateway session, and no more:
 * `commands/context.ts` provides both, and scenario steps pass theirs on without knowing it.
 */
export interface PurchaseContext {
  settings: Pick<Settings, 'settle' | 'codes' | 'desk' | 'operator'>;
  out: Output;
  /** SIGINT and SIGTERM (main.ts), which stop a payment's settling; none in a context made without it. */
  interrupts?: Interrupts;
  /** Where the purchase is recorded: the intent before the Payment, every outcome after. */
  openLedger(): Promise<Ledger>;
}

export interface PaymentSession {
  client: GatewayClient;
  /** Who the journal files transactions under: the base URL, or "sandbox". */
  gateway: string;
  agentId: string;
}
