import { Option } from 'commander';
import { PaymentOutcomeUnknownError, type RetryCommand } from '../errors.js';
import type { PaymentInput } from '../gateway/client.js';
import type { PaymentOutcome } from '../purchase/outcome.js';
import { redactSecrets } from '../run-scope.js';
import { settingEntries } from '../settings/table.js';
import type { CommandContext } from './context.js';

/** An unknown Payment sent again under its TransactionID (never paid twice, spec 3): `agentpay pay` with its
 * exact values and global options, quoted for a POSIX shell. A typed password shows as ***: a hint reaches logs. */

/** A word as a shell reads it back: bare when it holds nothing the shell treats specially, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The global options given on the command line, as they would be typed again. */
function globalArguments(flags: Readonly<Record<string, unknown>>): string[] {
  const words: string[] = [];
  for (const [name, setting] of settingEntries) {
    if (setting.flag === undefined) continue;
    const spellings = [[name, setting.flag], ...(setting.alias ? [[undefined, setting.alias.flag]] : [])];
    for (const [attribute, flag] of spellings) {
      const option = new Option(flag!);
      const value = flags[attribute ?? option.attributeName()];
      if (value === undefined) continue;
      // A switch: --sandbox when true; --no-color when false (commander's default for it is true).
      if (typeof value === 'boolean') {
        if (value !== option.negate) words.push(option.long!);
      } else words.push(option.long!, String(value));
    }
  }
  return words;
}

/** `agentpay [global options] pay --service … --txn-id …`, then `extra` (--receipt, --over-limit). */
export function retryPayCommand(
  flags: Readonly<Record<string, unknown>>,
  input: PaymentInput,
  extra: readonly string[] = [],
): RetryCommand {
  const purchase = [
    ...['--service', input.service, '--account', input.account, '--currency', input.currency],
    ...(input.invoiceId === undefined ? [] : ['--invoice-id', input.invoiceId]),
    ...['--amount', input.amount, '--txn-id', input.transactionId],
  ];
  const typed = ['agentpay', ...globalArguments(flags), 'pay', ...purchase, ...extra].map(shellWord).join(' ');
  const command = redactSecrets(typed);
  return { command, masked: command !== typed };
}

/** An unknown outcome's error, its hint naming the retry; any other error as it is. */
export function withRetryHint<T>(
  error: T,
  context: Pick<CommandContext, 'flags'>,
  input: PaymentInput,
  extra: readonly string[],
): T {
  if (!(error instanceof PaymentOutcomeUnknownError)) return error;
  return error.withRetry(retryPayCommand(context.flags ?? {}, input, extra)) as T;
}

/** A payment's outcome, its error's hint naming the retry when the outcome is unknown. */
export function outcomeWithRetry(
  outcome: PaymentOutcome,
  context: Pick<CommandContext, 'flags'>,
  input: PaymentInput,
  extra: readonly string[],
): PaymentOutcome {
  return outcome.error === undefined
    ? outcome
    : { ...outcome, error: withRetryHint(outcome.error, context, input, extra) };
}
