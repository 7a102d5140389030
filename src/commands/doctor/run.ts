import { existsSync } from 'node:fs';
import { AgentpayError } from '../../errors.js';
import { type CodeTable, classifyCode } from '../../protocol/codes.js';
import { generateTransactionId } from '../../protocol/transaction-id.js';
import type { GatewaySession } from '../../purchase/session.js';
import { doctorJson, type GatewayCheck, type LedgerCheck, renderDoctorReport } from '../../render/doctor.js';
import { t } from '../../run-scope.js';
import { codeListSettings } from '../../settings/code-lists.js';
import { stateDirectory } from '../../settings/directories.js';
import { describeSettings } from '../../settings/report.js';
import type { Settings } from '../../settings/resolve.js';
import type { CommandContext } from '../context.js';

/** A made-up TransactionID is one the gateway cannot know: its answer is the gateway's
 * "not found" code (or a credentials refusal, which the Message tells). An unclassified code
 * is suggested for notFoundCodes; one already in another list is left to the person. */
function suggestionFor(
  status: string,
  codes: CodeTable,
): { suggest?: { notFoundCodes: string[] }; suggestOnlyIf?: string } {
  if (classifyCode(status, codes) !== 'unclassified') return {};
  // A credentials refusal taken for "not found" would let reconcile close payments as never
  // made: the suggestion carries the condition a person must check in the Message.
  return { suggest: { notFoundCodes: [...codes.notFound, status] }, suggestOnlyIf: suggestionCondition };
}

const suggestionCondition = 'its Message says the transaction is unknown, not that the agent id or password is refused';

/** The ledger, looked at without changing it: a team ledger is reached and its schema version
 * read (nothing migrated, nothing delivered), and the outcomes waiting for it on this machine counted. */
async function checkLedger(settings: Settings): Promise<{ check: LedgerCheck; failure?: AgentpayError }> {
  const location = settings.ledger.value;
  if (location.kind === 'file')
    return { check: { kind: 'file', where: location.shown, exists: existsSync(location.path) } };
  const { inspectTeamLedger } = await import('../../ledger/open-ledger.js');
  const { waiting, schemaVersion, failure } = await inspectTeamLedger(
    location,
    settings.env,
    stateDirectory(settings.env),
  );
  const where = location.shown;
  if (schemaVersion !== undefined) return { check: { kind: 'postgres', where, ok: true, schemaVersion, waiting } };
  if (!(failure instanceof AgentpayError)) throw failure;
  return { check: { kind: 'postgres', where, ok: false, message: failure.message, waiting }, failure };
}

/** A Status for a made-up id. Under --replay without its fallback a made-up id has no recording
 * (HTTP 404, exit 5 for a replay that works): the recordings that answer are named instead. */
async function checkGateway(session: GatewaySession, settings: Settings): Promise<GatewayCheck> {
  const { endpoint } = session.client;
  if (settings.replay && !settings.replay.fallback) {
    // Read and checked whole already, by the replay the session started.
    const { loadCassettes } = await import('../../sandbox/cassette-files.js');
    const { directory } = settings.replay;
    return {
      ok: true,
      endpoint,
      route: session.route,
      replay: { directory, recordings: loadCassettes(directory).cassettes.length },
    };
  }
  const transactionId = generateTransactionId();
  const started = performance.now();
  const answer = await session.client.status(transactionId);
  return {
    ok: true,
    endpoint,
    route: session.route,
    transactionId,
    elapsedMs: Math.round(performance.now() - started),
    status: answer.status,
    message: answer.message,
    codeClass: classifyCode(answer.status, settings.codes.table),
    ...suggestionFor(answer.status, settings.codes.table),
  };
}

/** `agentpay doctor`: each setting and its source, then a Status (spec 4.4) for a made-up id: any understood
 * envelope is healthy. Exit 0, or 2 (a setting), 4 (gateway unreachable), 5 (answer not understood). */
export async function runDoctor(_rawOptions: unknown, context: CommandContext): Promise<void> {
  const { settings, out } = context;
  let session: GatewaySession | undefined;
  let gateway: GatewayCheck;
  let failure: AgentpayError | undefined;
  try {
    session = await context.openGateway();
    gateway = await checkGateway(session, settings);
  } catch (error) {
    if (!(error instanceof AgentpayError)) throw error;
    failure = error;
    gateway = {
      ok: false,
      endpoint: session?.client.endpoint ?? null,
      route: session?.route ?? null,
      exitCode: error.exitCode,
      message: error.message,
      hint: error.hint ?? null,
    };
  } finally {
    await session?.close();
  }
  const shown = describeSettings(settings, {
    isTerminal: out.stdin.isTTY === true,
    wasAsked: session?.passwordSource.source === 'prompt',
  });
  const ledger = await checkLedger(settings);
  const report = { settings: shown, notFoundCodes: codeListSettings.notFound, gateway, ledger: ledger.check };
  out.data(out.json ? doctorJson(report) : renderDoctorReport(report, out.style, t()));
  if (failure) throw failure;
  if (ledger.failure) throw ledger.failure;
}
