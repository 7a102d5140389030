import { UsageError } from '../../errors.js';
import type { Said } from '../../i18n/language.js';
import { parseOptions } from '../../options/definition.js';
import { choiceOption } from '../../options/values.js';
import type { Output } from '../../output.js';
import { t } from '../../run-scope.js';
import { sandboxBreaks } from '../../sandbox/gateway-logic.js';
import { codeListSettings, codeLists, codeTableEnvironment } from '../../settings/code-lists.js';
import type { CommandContext } from '../context.js';
import { loadReplay } from '../embedded-endpoint.js';
import { sandboxOptions } from './options.js';

function parseSandboxOptions(raw: unknown) {
  const options = parseOptions(raw, sandboxOptions);
  const breaks = options.break.map(
    (rule) => choiceOption(rule, sandboxBreaks, t().commands.notABreak(rule as string, sandboxBreaks.join(', ')))!,
  );
  return { ...options, break: breaks };
}

async function describeSandbox(baseUrl: string, breaks: readonly string[]) {
  const [{ sandboxAccounts, sandboxCredentials, sandboxServices }, { sandboxCodeTable }] = await Promise.all([
    import('../../sandbox/catalogue.js'),
    import('../../protocol/sandbox-codes.js'),
  ]);
  return {
    baseUrl,
    agentId: sandboxCredentials.agentId,
    password: sandboxCredentials.password,
    services: sandboxServices.map(({ id, kind, name, currency }) => ({ id, kind, name, currency })),
    accounts: sandboxAccounts.map(({ account, accepted, note }) => ({ account, accepted, note: note.en })),
    breaks,
    // Its code table, as a client reaching it by URL is to be told (README "Connecting to a real gateway").
    codes: Object.fromEntries(codeLists.map((list) => [codeListSettings[list].key, [...sandboxCodeTable[list]]])),
    codeEnvironment: codeTableEnvironment(sandboxCodeTable),
  };
}

interface ReplayInfo {
  directory: string;
  recordings: number;
  fallback: boolean;
}

/** Without --replay-fallback only the recordings answer, whoever asks: nothing of the sandbox's to offer. */
function printReplayBanner(out: Output, baseUrl: string, replay: ReplayInfo): void {
  const said = t().replay;
  out.data(`${out.style.success('●')} ${said.listening} ${out.style.strong(baseUrl)}`);
  out.data(said.serving(replay.recordings, replay.directory, replay.fallback));
  out.data(out.style.dim(said.anyCredentials));
  out.data(out.style.dim(t().sandbox.stop));
}

function printBanner(
  out: Output,
  info: Awaited<ReturnType<typeof describeSandbox>>,
  notes: readonly { account: string; note: Said }[],
  replay?: ReplayInfo,
): void {
  if (replay && !replay.fallback) return printReplayBanner(out, info.baseUrl, replay);
  const style = out.style;
  const said = t().sandbox;
  out.data(`${style.success('●')} ${said.listening} ${style.strong(info.baseUrl)}`);
  if (info.breaks.length > 0) out.data(style.failure(said.breaking(info.breaks.join(', '))));
  out.data(said.credentials(info.agentId, info.password));
  out.data(said.services);
  const kinds = t().buy.kinds;
  const kindWidth = Math.max(...Object.values(kinds).map((kind) => kind.length));
  for (const service of info.services) {
    out.data(
      `    ${service.id}  ${(kinds[service.kind] ?? service.kind).padEnd(kindWidth)}  ${service.currency}  ${service.name}`,
    );
  }
  out.data(said.accounts);
  for (const { account, note } of notes) out.data(`    ${account.padEnd(12)}  ${note[t().locale]}`);
  const { pendingCodes, notFoundCodes, failedCodes } = info.codes;
  out.data(said.codes(`${pendingCodes?.join(',')}`, `${notFoundCodes?.join(',')}`, `${failedCodes?.join(',')}`));
  const example = `AGENTPAY_BASE_URL=${info.baseUrl} AGENTPAY_AGENT_ID=${info.agentId} AGENTPAY_PASSWORD=${info.password} agentpay check --service 101 --account 7011234567`;
  out.data(style.dim(`${said.tryIt} ${example}`));
  const codes = Object.entries(info.codeEnvironment).map(([name, value]) => `${name}=${value}`);
  out.data(style.dim(`${said.giveCodes} ${codes.join(' ')}`));
  if (replay) out.data(t().replay.serving(replay.recordings, replay.directory, replay.fallback));
  out.data(style.dim(said.stop));
}

function faultLines(options: {
  latency: number;
  dropAfterCommit: number;
  failRate: number;
  garbage?: string | undefined;
}): string[] {
  const said = t().commands.sandboxFault;
  const lines: string[] = [];
  if (options.garbage !== undefined) lines.push(said.garbage(options.garbage));
  if (options.latency > 0) lines.push(said.latency(options.latency));
  if (options.dropAfterCommit > 0) lines.push(said.drop(options.dropAfterCommit));
  if (options.failRate > 0) lines.push(said.failRate(String(options.failRate)));
  return lines;
}

/** The --json line: as the banner, the recordings alone when nothing of the sandbox's answers. */
function jsonLine(info: Awaited<ReturnType<typeof describeSandbox>>, replay: ReplayInfo | undefined): object {
  if (replay === undefined) return info;
  return replay.fallback ? { ...info, replay } : { baseUrl: info.baseUrl, replay };
}

// Without --replay-fallback only recordings answer, so faults would break nothing: refused. --latency still
// delays them.
function refuseFaultsOfNothing(options: ReturnType<typeof parseSandboxOptions>): void {
  const given = [
    ['--garbage', options.garbage !== undefined],
    ['--break', options.break.length > 0],
    ['--drop-after-commit', options.dropAfterCommit > 0],
    ['--fail-rate', options.failRate > 0],
  ] as const;
  const flag = given.find(([, on]) => on)?.[0];
  if (flag !== undefined) throw new UsageError(t().replay.faultWithoutFallback(flag));
}

/** `agentpay sandbox`: the sandbox gateway in the foreground, until SIGINT or SIGTERM. */
export async function runSandbox(rawOptions: unknown, context: CommandContext): Promise<void> {
  const options = parseSandboxOptions(rawOptions);
  const { out } = context;
  const [{ startSandbox }, { SandboxStateError }] = await Promise.all([
    import('../../sandbox/server.js'),
    import('../../sandbox/state.js'),
  ]);
  const { replay: replaying } = context.settings;
  if (replaying && !replaying.fallback) refuseFaultsOfNothing(options);
  // Served from one process: which payment each new TransactionID stands for is kept in memory.
  const replay = replaying && (await loadReplay(replaying, undefined, (text) => out.warn(text)));
  let sandbox;
  try {
    sandbox = await startSandbox({
      host: options.host,
      port: options.port,
      ...(options.state === undefined ? {} : { statePath: options.state }),
      replay,
      behaviour: { pendingPolls: options.pending, breaks: options.break },
      faults: {
        latencyMs: options.latency,
        dropAfterCommit: options.dropAfterCommit,
        failRate: options.failRate,
        garbage: options.garbage,
      },
    });
  } catch (error) {
    if (error instanceof SandboxStateError)
      throw new UsageError(t().commands.cannotOpenSandboxState(error.path, error.reason), {
        hint: t().commands.cannotOpenSandboxStateHint,
      });
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(t().commands.cannotListen(`${options.host}:${options.port}`, reason), {
      hint: t().commands.cannotListenHint,
    });
  }
  const info = await describeSandbox(sandbox.baseUrl, options.break);
  const replayInfo: ReplayInfo | undefined =
    replaying && replay
      ? { directory: replaying.directory, recordings: replay.size, fallback: replay.fallback }
      : undefined;
  if (out.json) out.data(JSON.stringify(jsonLine(info, replayInfo)));
  else printBanner(out, info, (await import('../../sandbox/catalogue.js')).sandboxAccounts, replayInfo);
  for (const line of faultLines(options)) out.warn(t().commands.fault(line));
  // SIGINT or SIGTERM (main.ts hears them) is how a sandbox ends: exit 0.
  const { signal } = context.interrupts;
  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
}
