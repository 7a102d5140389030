import { UsageError } from '../../errors.js';
import type { JournalEntry } from '../../ledger/ledger.js';
import { parseOptions } from '../../options/definition.js';
import { optionRecord } from '../../options/values.js';
import { parseTransactionId } from '../../protocol/transaction-id.js';
import { journalGatewayOf } from '../../purchase/session.js';
import { t } from '../../run-scope.js';
import type { Settings } from '../../settings/resolve.js';
import type { CommandContext } from '../context.js';
import { receiptOf, utcOffsetAt } from '../ledger-receipt.js';
import { receiptOptions } from './options.js';

interface ReceiptOptions {
  txnId: string;
  width: number | undefined;
}

function parseReceiptOptions(raw: unknown): ReceiptOptions {
  const options = optionRecord(raw);
  if (typeof options.txnId !== 'string') throw new UsageError(t().commands.receiptWhich);
  return { txnId: parseTransactionId(options.txnId), ...parseOptions(raw, receiptOptions) };
}

/** The gateway and agent the settings name, if any: a TransactionID is unique only per gateway and agent. */
async function chosenOwner(settings: Settings): Promise<{ gateway: string; agentId: string | undefined } | undefined> {
  if (!settings.sandbox && settings.baseUrl === undefined) return undefined;
  const agentId = settings.sandbox
    ? (await import('../../sandbox/catalogue.js')).sandboxCredentials.agentId
    : settings.agentId?.value;
  return { gateway: journalGatewayOf(settings, settings.baseUrl?.value ?? ''), agentId };
}

const ownerText = ({ gateway, agentId }: { gateway: string; agentId?: string | undefined }) =>
  t().commands.owner(gateway, agentId);

/** The one entry the receipt is of, or a UsageError saying why there is none. */
async function entryOf(context: CommandContext, id: string): Promise<JournalEntry> {
  const owner = await chosenOwner(context.settings);
  const ledger = await context.openLedger();
  const all = await ledger.transaction(id);
  const mine =
    owner === undefined
      ? all
      : all.filter(
          ({ intent }) =>
            intent.gateway === owner.gateway && (owner.agentId === undefined || intent.agentId === owner.agentId),
        );
  const held = all.map(({ intent }) => ownerText(intent)).join(', ');
  if (mine.length === 1) return mine[0]!;
  if (mine.length > 1) {
    const owners = mine.map(({ intent }) => ownerText(intent)).join(', ');
    throw new UsageError(t().commands.inLedgerForMany(id, mine.length, owners), {
      hint: t().commands.chooseGatewayHint,
    });
  }
  if (owner !== undefined && all.length > 0) {
    throw new UsageError(t().commands.inLedgerForOther(id, ownerText(owner), held), {
      hint: t().commands.chooseGatewayHint,
    });
  }
  throw new UsageError(t().commands.notInLedger(id, ledger.location.shown), { hint: t().commands.notInLedgerHint });
}

/** `agentpay receipt <txn-id>`: a transaction's receipt reprinted from the ledger; nothing is sent. */
export async function runReceipt(rawOptions: unknown, context: CommandContext): Promise<void> {
  const options = parseReceiptOptions(rawOptions);
  const { out } = context;
  const receipt = receiptOf(await entryOf(context, options.txnId));
  const { renderLedgerReceipt, ledgerReceiptJson } = await import('../../render/receipt.js');
  out.data(
    out.json
      ? ledgerReceiptJson(receipt)
      : renderLedgerReceipt(
          receipt,
          out.style,
          { width: options.width, utcOffsetMinutes: utcOffsetAt(receipt.at) },
          t(),
        ),
  );
}
