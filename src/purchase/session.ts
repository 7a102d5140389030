import type { ExchangeEvent, GatewayClient } from '../gateway/client.js';
import type { Transport } from '../gateway/http.js';
import type { CassetteRecorder } from '../gateway/recorder.js';
import { exchangeProblemText } from '../i18n/gateway-fault-words.js';
import type { Interrupts } from '../interrupts.js';
import type { Ledger } from '../ledger/ledger.js';
import type { Output } from '../output.js';
import { formToObject } from '../protocol/form.js';
import { gatewayIdentity } from '../protocol/gateway-identity.js';
import { md5Hex, passwordOnWire } from '../protocol/password.js';
import { shownText } from '../render/sanitize.js';
import { registerSecret, t } from '../run-scope.js';
import type { Settings } from '../settings/resolve.js';
import type { SettingSource } from '../settings/sources.js';
import { type Endpoint, openRecorder, warnUnrecorded } from './endpoint.js';

/** What the purchase layer needs of a command's context: commands/context.ts and scenario steps give it. */
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

export interface OpenGatewayOptions {
  connections?: number;
  /** Sees every exchange (forms masked, bodies redacted), as --verbose does. */
  onExchange?: (event: ExchangeEvent) => void;
  /** What cuts AccountChecks and Statuses short: the first signal; a bulk run (its rows settle after it) its second. */
  stop?: AbortSignal;
}

export interface GatewaySession extends PaymentSession {
  baseUrl: string;
  /** Where the password came from (never the password itself), for `doctor`. */
  passwordSource: { source: SettingSource; origin?: string | undefined };
  /** How requests travel: "direct", or the proxy and where it was set. */
  route: string;
  /** This session as another agent or password, on the same connections (scenario steps); close only the first. */
  withCredentials(override: { agentId?: string | undefined; password?: string | undefined }): GatewaySession;
  /** Waits for requests in flight, then lets go; with `abort` (Ctrl+C) drops them at once. */
  close(options?: { abort?: boolean }): Promise<void>;
}

/** The name the ledger files transactions under: the base URL's identity (protocol/gateway-identity.ts),
 * or "sandbox" and "replay" for the embedded ones (their port changes every run). reconcile matches it. */
export function journalGatewayOf(settings: Pick<Settings, 'sandbox' | 'replay'>, baseUrl: string): string;
export function journalGatewayOf(
  settings: Pick<Settings, 'sandbox' | 'replay'>,
  baseUrl: string | undefined,
): string | undefined;
export function journalGatewayOf(
  settings: Pick<Settings, 'sandbox' | 'replay'>,
  baseUrl: string | undefined,
): string | undefined {
  if (settings.replay) return 'replay';
  if (settings.sandbox) return 'sandbox';
  return baseUrl === undefined ? undefined : gatewayIdentity(baseUrl);
}

/** --verbose: each exchange on stderr, the gateway's answer as text a person reads (its controls shown). */
function traceExchange(out: Output) {
  const style = out.errorStyle;
  return (event: ExchangeEvent) => {
    if (event.direction === 'request') {
      out.note(style.dim(`→ POST ${shownText(event.url)} ${event.operation}`));
      out.note(style.dim(`  ${shownText(JSON.stringify(formToObject(event.form)))}`));
    } else if (event.direction === 'response') {
      out.note(style.dim(`← HTTP ${event.statusCode} in ${event.elapsedMs} ms`));
      const body = event.body.length > 2000 ? `${event.body.slice(0, 2000)}… (${event.body.length} chars)` : event.body;
      out.note(style.dim(`  ${shownText(body)}`));
    } else {
      const problem = shownText(exchangeProblemText(event.problem, t()));
      out.note(style.dim(`✗ ${event.operation} failed after ${event.elapsedMs} ms: ${problem}`));
    }
  };
}

/** The gateway at `endpoint` (configuredEndpoint, or the embedded one), with its transport, recorder and client. */
export async function openGatewaySession(
  settings: Settings,
  out: Output,
  endpoint: Endpoint,
  options: OpenGatewayOptions,
): Promise<GatewaySession> {
  const [{ GatewayClient }, { HttpTransport }] = await Promise.all([
    import('../gateway/client.js'),
    import('../gateway/transport.js'),
  ]);
  const { baseUrl, agentId, password, network } = endpoint;
  const timeoutMs = settings.timeoutMs.value;
  let recorder: CassetteRecorder | undefined;
  let transport: Transport;
  try {
    recorder = settings.record === undefined ? undefined : await openRecorder(settings.record, password);
    transport = new HttpTransport({
      timeoutMs,
      connections: options.connections,
      ca: endpoint.ca,
      proxy: network.route,
    });
  } catch (error) {
    // The embedded sandbox listens in this process: left open, it would keep the process alive.
    await endpoint.stop?.();
    throw error;
  }
  const listeners = [settings.verbose ? traceExchange(out) : undefined, options.onExchange].filter(
    (listener) => listener !== undefined,
  );
  const wireCredentials = (id: string, secret: string) => ({
    agentId: id,
    wirePassword: passwordOnWire(secret, settings.passwordFormat.value),
  });
  const client = new GatewayClient({
    baseUrl,
    credentials: wireCredentials(agentId, password),
    secrets: [password, md5Hex(password)],
    timeoutMs,
    dateFormat: settings.dateFormat.value,
    transport,
    ...(recorder === undefined ? {} : { recorder }),
    ...(endpoint.replayMisses === undefined ? {} : { replayMisses: endpoint.replayMisses }),
    ...(options.stop === undefined ? {} : { stop: options.stop }),
    ...(network.route.kind === 'direct' ? {} : { routeDescription: network.description }),
    ...(listeners.length > 0
      ? { onExchange: (event: ExchangeEvent) => listeners.forEach((listener) => listener(event)) }
      : {}),
  });
  const session = (sessionClient: GatewayClient, sessionAgentId: string): GatewaySession => ({
    client: sessionClient,
    baseUrl,
    gateway: journalGatewayOf(settings, baseUrl),
    agentId: sessionAgentId,
    passwordSource: endpoint.passwordSource,
    route: network.description,
    withCredentials: (override) => {
      const otherId = override.agentId ?? agentId;
      const otherPassword = override.password ?? password;
      registerSecret(otherPassword);
      const credentials = wireCredentials(otherId, otherPassword);
      return session(client.withCredentials(credentials, [otherPassword, md5Hex(otherPassword)]), otherId);
    },
    close: async ({ abort = false } = {}) => {
      if (abort) await transport.destroy();
      else await transport.close();
      await endpoint.stop?.();
      warnUnrecorded(recorder, out);
    },
  });
  return session(client, agentId);
}
