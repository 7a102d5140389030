import { join } from 'node:path';
import { resolveSettings, stateDirectory, type GlobalFlags, type Settings } from '../config.js';
import { UsageError } from '../errors.js';
import type { ExchangeEvent, GatewayClient } from '../gateway/client.js';
import { Output, type ProcessIo } from '../output.js';
import { formToObject } from '../protocol/form.js';
import { md5Hex, passwordOnWire } from '../protocol/password.js';

/** What every command gets: validated settings, the output streams, and a way to the gateway. */
export interface CommandContext {
  settings: Settings;
  out: Output;
  openGateway(options?: OpenGatewayOptions): Promise<GatewaySession>;
}

export interface OpenGatewayOptions {
  connections?: number;
  /** Sees every exchange (forms masked, bodies redacted), as --verbose does. */
  onExchange?: (event: ExchangeEvent) => void;
}

export interface GatewaySession {
  client: GatewayClient;
  baseUrl: string;
  /** Who the journal files transactions under: the base URL, or "sandbox" (its port changes). */
  gateway: string;
  agentId: string;
  /**
   * This session with another agent id or password (sent in the configured format), on the
   * same connections: scenario steps that check the gateway refuses wrong credentials.
   * Close only the session openGateway returned: the others share its connections.
   */
  withCredentials(override: { agentId?: string | undefined; password?: string | undefined }): GatewaySession;
  close(): Promise<void>;
}

export function createContext(flags: GlobalFlags, io: ProcessIo): CommandContext {
  const settings = resolveSettings(flags, io.env);
  const out = new Output(io, flags);
  return { settings, out, openGateway: (options) => openGateway(settings, out, options ?? {}) };
}

function traceExchange(out: Output) {
  const style = out.errorStyle;
  return (event: ExchangeEvent) => {
    if (event.direction === 'request') {
      out.note(style.dim(`→ POST ${event.url} ${event.operation}`));
      out.note(style.dim(`  ${JSON.stringify(formToObject(event.form))}`));
    } else if (event.direction === 'response') {
      out.note(style.dim(`← HTTP ${event.statusCode} in ${event.elapsedMs} ms`));
      out.note(style.dim(`  ${event.body.length > 2000 ? `${event.body.slice(0, 2000)}… (${event.body.length} chars)` : event.body}`));
    } else {
      out.note(style.dim(`✗ ${event.operation} failed after ${event.elapsedMs} ms: ${event.message}`));
    }
  };
}

async function openGateway(settings: Settings, out: Output, options: OpenGatewayOptions): Promise<GatewaySession> {
  const [{ GatewayClient }, { createDispatcher }] = await Promise.all([import('../gateway/client.js'), import('../gateway/http.js')]);
  let baseUrl: string;
  let agentId: string;
  let password: string;
  let stopSandbox: (() => Promise<void>) | undefined;

  if (settings.sandbox) {
    const [{ startSandbox }, { sandboxCredentials }] = await Promise.all([
      import('../sandbox/server.js'),
      import('../sandbox/catalogue.js'),
    ]);
    // State on disk, so `pay` and a later `status` in another process agree.
    const sandbox = await startSandbox({ statePath: join(stateDirectory(settings.env), 'sandbox-state.jsonl') });
    baseUrl = sandbox.baseUrl;
    agentId = sandboxCredentials.agentId;
    password = sandboxCredentials.password;
    stopSandbox = sandbox.close;
  } else {
    if (!settings.baseUrl) {
      throw new UsageError('no gateway is set', { hint: 'give --base-url <url> or AGENTPAY_BASE_URL, use a --profile, or try --sandbox' });
    }
    if (!settings.agentId) {
      throw new UsageError('no agent id is set', { hint: 'give --agent-id <id> or AGENTPAY_AGENT_ID, or use a --profile' });
    }
    baseUrl = settings.baseUrl.value;
    agentId = settings.agentId.value;
    const { resolvePassword } = await import('../password-source.js');
    password = (await resolvePassword(settings, { stdin: out.stdin, stderr: out.stderr })).value;
  }

  const timeoutMs = settings.timeoutMs.value;
  const dispatcher = createDispatcher({ timeoutMs, connections: options.connections });
  const listeners = [settings.verbose ? traceExchange(out) : undefined, options.onExchange].filter((l) => l !== undefined);
  const wireCredentials = (id: string, secret: string) => ({ agentId: id, wirePassword: passwordOnWire(secret, settings.passwordFormat.value) });
  const client = new GatewayClient({
    baseUrl,
    credentials: wireCredentials(agentId, password),
    secrets: [password, md5Hex(password)],
    timeoutMs,
    dateFormat: settings.dateFormat.value,
    dispatcher,
    ...(listeners.length > 0 ? { onExchange: (event: ExchangeEvent) => listeners.forEach((listener) => listener(event)) } : {}),
  });
  const session = (sessionClient: GatewayClient, sessionAgentId: string): GatewaySession => ({
    client: sessionClient,
    baseUrl,
    gateway: settings.sandbox ? 'sandbox' : baseUrl,
    agentId: sessionAgentId,
    withCredentials: (override) => {
      const otherId = override.agentId ?? agentId;
      const otherPassword = override.password ?? password;
      return session(client.withCredentials(wireCredentials(otherId, otherPassword), [otherPassword, md5Hex(otherPassword)]), otherId);
    },
    close: async () => {
      await dispatcher.close();
      await stopSandbox?.();
    },
  });
  return session(client, agentId);
}
