import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { ExchangeEvent, GatewayClient } from '../gateway/client.js';
import type { ProxyRoute, Transport } from '../gateway/http.js';
import type { CassetteRecorder } from '../gateway/recorder.js';
import { type Interrupts, noInterrupts } from '../interrupts.js';
import type { Ledger } from '../ledger/ledger.js';
import { Output, type ProcessIo } from '../output.js';
import { formToObject } from '../protocol/form.js';
import { gatewayIdentity } from '../protocol/gateway-identity.js';
import { md5Hex, passwordOnWire } from '../protocol/password.js';
import { exchangeProblemText } from '../render/gateway-fault.js';
import { shownText } from '../render/sanitize.js';
import { registerSecret, t } from '../run-scope.js';
import { redactUrlCredentials } from '../secrets.js';
import { checkConnectionSet } from '../settings/connection-set.js';
import { type NetworkSettings, resolveSettings, type Settings } from '../settings/resolve.js';
import type { SettingSource } from '../settings/sources.js';
import type { GlobalFlags } from '../settings/table.js';
import { type Endpoint, embeddedEndpoint, openRecorder, warnUnrecorded } from './embedded-endpoint.js';

/** What every command gets: validated settings, the output streams, and a way to the gateway. */
export interface CommandContext {
  settings: Settings;
  out: Output;
  /** The global options as the command line gave them, for a hint that names a command to run again. */
  flags?: GlobalFlags;
  /**
   * SIGINT and SIGTERM (main.ts): the first aborts `interrupts.signal`, which stops the
   * sessions' look-ups at once; a command ends with a line saying so (errors.ts InterruptedError).
   */
  interrupts: Interrupts;
  openGateway(options?: OpenGatewayOptions): Promise<GatewaySession>;
  /** The ledger the settings name, opened on first use and closed when the command ends. */
  openLedger(): Promise<Ledger>;
  /** Lets go of what the command opened (the ledger's connection). */
  close(): Promise<void>;
}

interface OpenGatewayOptions {
  connections?: number;
  /** Many exchanges to come (ids from a file or stdin): a pool that costs more to load, less per exchange. */
  batch?: boolean;
  /** Sees every exchange (forms masked, bodies redacted), as --verbose does. */
  onExchange?: (event: ExchangeEvent) => void;
  /**
   * What cuts the session's AccountChecks and Statuses short: the first SIGINT or SIGTERM by
   * default; a bulk run, whose rows in flight settle after the first, gives its second.
   */
  stop?: AbortSignal;
}

export interface GatewaySession {
  client: GatewayClient;
  baseUrl: string;
  /** Who the journal files transactions under: the base URL, or "sandbox" (its port changes). */
  gateway: string;
  agentId: string;
  /** Where the password came from (never the password itself), for `doctor`. */
  passwordSource: { source: SettingSource; origin?: string | undefined };
  /** How requests travel: "direct", or the proxy and where it was set. */
  route: string;
  /**
   * This session with another agent id or password (sent in the configured format), on the
   * same connections: scenario steps that check the gateway refuses wrong credentials.
   * Close only the session openGateway returned: the others share its connections.
   */
  withCredentials(override: { agentId?: string | undefined; password?: string | undefined }): GatewaySession;
  /**
   * Waits for requests in flight, then lets go. With `abort` (the person pressed Ctrl+C)
   * requests in flight are dropped at once instead.
   */
  close(options?: { abort?: boolean }): Promise<void>;
}

/**
 * The gateway name the ledger files transactions under: the base URL's identity (one name
 * however it is spelled, `localhost` as 127.0.0.1: protocol/gateway-identity.ts), or "sandbox"
 * for the embedded one (its port changes every run). pay writes it and reconcile matches it.
 */
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

export async function createContext(flags: GlobalFlags, io: ProcessIo): Promise<CommandContext> {
  const [settings, out] = await Promise.all([resolveSettings(flags, io.env), Output.create(io, flags)]);
  for (const warning of settings.warnings) out.warn(warning);
  let ledger: Promise<Ledger> | undefined;
  const interrupts = io.interrupts ?? noInterrupts;
  return {
    settings,
    out,
    flags,
    interrupts,
    openGateway: (options) => openGateway(settings, out, { stop: interrupts.signal, ...options }),
    openLedger: () => {
      ledger ??= import('../ledger/open-ledger.js')
        .then(({ openLedger }) => openLedger(settings, out, interrupts.signal))
        .then((opened) => {
          // An operator role is who the ledger records, so it is who the desk's rules weigh.
          if (opened.recordsAs !== undefined) settings.operator = { ...settings.operator, value: opened.recordsAs };
          return opened;
        });
      return ledger;
    },
    close: async () => {
      const opened = await ledger?.catch(() => undefined);
      await opened?.close();
    },
  };
}

/** --verbose: each exchange on stderr, the gateway's answer as text a person reads (shownText: its controls shown, on one line). */
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
      out.note(
        style.dim(
          `✗ ${event.operation} failed after ${event.elapsedMs} ms: ${shownText(exchangeProblemText(event.problem, t()))}`,
        ),
      );
    }
  };
}

/** The proxy route the settings ask for: --proxy, else HTTP(S)_PROXY and NO_PROXY, else none. */
export function proxyRouteOf(network: NetworkSettings): { route: ProxyRoute; description: string } {
  if (network.proxy) {
    const where = network.proxy.source === 'flag' ? '--proxy' : t().commands.profileKey('proxy');
    return {
      route: { kind: 'explicit', url: network.proxy.value },
      description: `${redactUrlCredentials(network.proxy.value)} (${where})`,
    };
  }
  if (network.httpProxy || network.httpsProxy) {
    const named = [network.httpsProxy, network.httpProxy, network.noProxy]
      .filter((value) => value !== undefined)
      .map((value) => `${value.origin}=${redactUrlCredentials(value.value)}`);
    return {
      route: {
        kind: 'env',
        httpProxy: network.httpProxy?.value ?? '',
        httpsProxy: network.httpsProxy?.value ?? '',
        noProxy: network.noProxy?.value ?? '',
      },
      description: named.join(', '),
    };
  }
  return { route: { kind: 'direct' }, description: 'direct' };
}

/** The PEM text of --ca-file / AGENTPAY_CA_FILE, checked to hold a certificate. */
function readCaFile(network: NetworkSettings): string | undefined {
  if (!network.caFile) return undefined;
  const path = network.caFile.value;
  const where =
    network.caFile.origin ?? (network.caFile.source === 'flag' ? '--ca-file' : t().commands.profileKey('caFile'));
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(t().commands.caUnreadable(path, where, reason));
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new UsageError(t().commands.caNoCertificate(path, where), { hint: t().commands.caHint });
  }
  return pem;
}

async function configuredEndpoint(settings: Settings, out: Output): Promise<Endpoint> {
  checkConnectionSet(settings, out.stdin.isTTY === true);
  const network = proxyRouteOf(settings.network);
  const ca = readCaFile(settings.network);
  const { resolvePassword } = await import('../password-source.js');
  const io = {
    get stdin() {
      return out.stdin;
    },
    stderr: out.stderr,
    warn: (message: string) => out.warn(message),
  }; // stdin made only if read
  const resolved = await resolvePassword(settings, io);
  const passwordSource = { source: resolved.source, origin: resolved.origin };
  return {
    baseUrl: settings.baseUrl.value,
    agentId: settings.agentId.value,
    password: resolved.value,
    passwordSource,
    network,
    ca,
  };
}

async function openGateway(settings: Settings, out: Output, options: OpenGatewayOptions): Promise<GatewaySession> {
  const [{ GatewayClient }, { openTransport }] = await Promise.all([
    import('../gateway/client.js'),
    import('../gateway/open-transport.js'),
  ]);
  const endpoint = settings.sandbox ? await embeddedEndpoint(settings, out) : await configuredEndpoint(settings, out);
  const { baseUrl, agentId, password, network } = endpoint;
  const timeoutMs = settings.timeoutMs.value;
  let recorder: CassetteRecorder | undefined;
  let transport: Transport;
  try {
    recorder = settings.record === undefined ? undefined : await openRecorder(settings.record, password);
    transport = await openTransport({
      timeoutMs,
      connections: options.connections,
      ca: endpoint.ca,
      proxy: network.route,
      batch: options.batch,
    });
  } catch (error) {
    // The embedded sandbox listens in this process: left open, it would keep the process alive
    // after the error was reported (`--sandbox --record <a directory it cannot write>` hung).
    await endpoint.stop?.();
    throw error;
  }
  const listeners = [settings.verbose ? traceExchange(out) : undefined, options.onExchange].filter(
    (l) => l !== undefined,
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
      return session(
        client.withCredentials(wireCredentials(otherId, otherPassword), [otherPassword, md5Hex(otherPassword)]),
        otherId,
      );
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
