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
  openGateway(options?: { connections?: number }): Promise<GatewaySession>;
}

export interface GatewaySession {
  client: GatewayClient;
  baseUrl: string;
  /** Who the journal files transactions under: the base URL, or "sandbox" (its port changes). */
  gateway: string;
  agentId: string;
  close(): Promise<void>;
}

export async function createContext(flags: GlobalFlags, io: ProcessIo): Promise<CommandContext> {
  const [settings, out] = await Promise.all([resolveSettings(flags, io.env), Output.create(io, flags)]);
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

async function openGateway(settings: Settings, out: Output, options: { connections?: number }): Promise<GatewaySession> {
  const [{ GatewayClient }, { createDispatcher }, { resolvePassword }] = await Promise.all([
    import('../gateway/client.js'),
    import('../gateway/http.js'),
    import('../password-source.js'),
  ]);
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
    const io = { get stdin() { return out.stdin; }, stderr: out.stderr }; // stdin made only if read
    password = (await resolvePassword(settings, io)).value;
  }

  const timeoutMs = settings.timeoutMs.value;
  const dispatcher = createDispatcher({ timeoutMs, connections: options.connections });
  const client = new GatewayClient({
    baseUrl,
    credentials: { agentId, wirePassword: passwordOnWire(password, settings.passwordFormat.value) },
    secrets: () => [password, md5Hex(password)],
    timeoutMs,
    dateFormat: settings.dateFormat.value,
    dispatcher,
    ...(settings.verbose ? { onExchange: traceExchange(out) } : {}),
  });
  return {
    client,
    baseUrl,
    gateway: settings.sandbox ? 'sandbox' : baseUrl,
    agentId,
    close: async () => {
      await dispatcher.close();
      await stopSandbox?.();
    },
  };
}
