import { CancelledError, InterruptedError, UsageError } from '../errors.js';
import type { PurchaseInput } from '../gateway/client.js';
import { optionRecord, switchOption } from '../options/values.js';
import { type LiveLine, renderLiveLine } from '../render/live-line.js';
import { t } from '../run-scope.js';
import type { Settings } from '../settings/resolve.js';
import type { CommandContext } from './context.js';

/** The live guard (docs/desk-safety.md "A live profile"): a live profile is named on stderr before anything is
 * sent; `pay` asks at a terminal or needs --yes from a script, `scenario` always needs --yes.
 * Which profile is live is settled in settings/desk.ts. */

/** --yes: pay through a live profile without asking. */
export function yesOption(raw: unknown): boolean {
  return switchOption(optionRecord(raw).yes, '--yes');
}

/** The LIVE line's facts, or undefined when the command does not pay through a live profile. */
export function liveLineOf(settings: Pick<Settings, 'desk' | 'baseUrl' | 'agentId'>): LiveLine | undefined {
  const live = settings.desk.live;
  if (live === undefined) return undefined;
  const baseUrl = settings.baseUrl?.value;
  return {
    profile: live.profile,
    host: baseUrl === undefined ? undefined : new URL(baseUrl).host,
    agentId: settings.agentId?.value,
    chosenBy: live.chosenBy,
  };
}

/** Shows the LIVE line (also under --json, as a note on stderr) when the profile is live. */
export function announceLive({ settings, out }: Pick<CommandContext, 'settings' | 'out'>): LiveLine | undefined {
  const line = liveLineOf(settings);
  if (line !== undefined) out.note(renderLiveLine(line, out.errorStyle, t()));
  return line;
}

/** A question about paying cancelled (Ctrl+C or Esc at it): said as what it means, that nothing
 * was paid (`message`), rather than a bare "cancelled". Any other error passes as it is. */
export function cancelledBeforePaying(error: unknown, message = t().errors.cancelledNothingPaid): unknown {
  const bare = error instanceof CancelledError && !(error instanceof InterruptedError);
  return bare && error.message === t().errors.cancelled ? new CancelledError(message) : error;
}

/** What pay does about a live profile once the voucher is known. */
export interface PayLiveGuard {
  /** The guards lifted for the ledger: ["yes"] when --yes paid through a live profile. */
  overrides: readonly string[];
  /** At a terminal without --yes (absent otherwise): asks once (y/N, No by default); No ends with nothing sent. */
  confirm?: (payment: PurchaseInput) => Promise<void>;
}

const unguarded: PayLiveGuard = { overrides: [] };

/** pay's guard, before anything is sent (not even the AccountCheck): the LIVE line, then from a
 * script a refusal without --yes. A dry run sends nothing, so it only shows the line. */
export function guardLivePay(
  context: Pick<CommandContext, 'settings' | 'out'>,
  options: { yes: boolean; dryRun: boolean },
): PayLiveGuard {
  const line = announceLive(context);
  if (line === undefined || options.dryRun) return unguarded;
  if (options.yes) return { overrides: ['yes'] };
  const { out } = context;
  if (!out.stdin.isTTY) {
    throw new UsageError(t().desk.live.payNeedsYes(JSON.stringify(line.profile)), {
      hint: t().desk.live.payNeedsYesHint(t().desk.live.otherWays),
    });
  }
  return {
    overrides: [],
    confirm: async (payment) => {
      const { terminalPrompter } = await import('../prompts.js');
      const prompter = terminalPrompter({ stdin: out.stdin, stderr: out.stderr, color: out.errorStyle.enabled });
      const { amount, currency, account, service } = payment;
      const message = t().desk.live.confirm({ amount, currency, account, service, profile: line.profile });
      const go = await prompter
        .confirm({ message, initial: false, answers: { yes: t().yes, no: t().no } })
        .catch((error: unknown) => {
          throw cancelledBeforePaying(error);
        });
      if (!go) throw new CancelledError(t().errors.cancelledNothingPaid);
    },
  };
}

/** scenario pays unattended, so through a live profile it needs --yes, at a terminal too. Returns
 * the guards lifted for its payments: ["yes"] when --yes let it pay through a live profile. */
export function guardLiveScenario(context: Pick<CommandContext, 'settings' | 'out'>, yes: boolean): string[] {
  const line = announceLive(context);
  if (line === undefined) return [];
  if (yes) return ['yes'];
  throw new UsageError(t().commands.scenarioLive(line.profile), {
    hint: t().commands.scenarioLiveHint(t().desk.live.otherWays),
  });
}
