import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { Output } from '../output.js';
import type { Endpoint } from '../purchase/endpoint.js';
import { registerSecret, t } from '../run-scope.js';
import type { Replay } from '../sandbox/replay.js';
import { stateDirectory } from '../settings/directories.js';
import type { ReplaySettings, Settings } from '../settings/resolve.js';

/** The recordings of --replay, checked whole before anything is sent (docs/replay.md). */
export async function loadReplay(
  replay: ReplaySettings,
  statePath: string | undefined,
  warn: (text: string) => void,
): Promise<Replay> {
  const [{ Replay }, { loadCassettes }, { CassetteError }] = await Promise.all([
    import('../sandbox/replay.js'),
    import('../sandbox/cassette-files.js'),
    import('../protocol/cassette.js'),
  ]);
  const said = t().replay;
  let cassettes;
  try {
    const loaded = loadCassettes(replay.directory);
    for (const problem of loaded.cutShort) warn(said.cutShort(replay.directory, problem));
    cassettes = loaded.cassettes;
  } catch (error) {
    if (error instanceof CassetteError)
      throw new UsageError(said.badCassette(replay.directory, error.message), { hint: said.nothingSent });
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(said.cannotRead(replay.directory, code), { hint: said.nothingSent });
  }
  if (cassettes.length === 0 && !replay.fallback)
    throw new UsageError(said.empty(replay.directory), { hint: said.emptyHint });
  // In this process (a state path: --replay) the client asks which of its requests were refused.
  return new Replay(cassettes, replay.fallback, { directory: replay.directory, statePath, keepMisses: !!statePath });
}

/** The embedded gateway of --sandbox, or of --replay: its recordings, and the sandbox behind
 * them for --replay-fallback. State on disk, so `pay` and a later `status` in another process
 * agree. On loopback in this process: no proxy, no TLS. */
export async function embeddedEndpoint(settings: Settings, out: Output): Promise<Endpoint> {
  const [{ startSandbox }, { sandboxCredentials }, { SandboxStateError }] = await Promise.all([
    import('../sandbox/server.js'),
    import('../sandbox/catalogue.js'),
    import('../sandbox/state.js'),
  ]);
  const state = stateDirectory(settings.env);
  const replay =
    settings.replay && (await loadReplay(settings.replay, join(state, 'replay-state.jsonl'), (text) => out.warn(text)));
  let sandbox;
  try {
    sandbox = await startSandbox({ statePath: join(state, 'sandbox-state.sqlite'), replay });
  } catch (error) {
    if (!(error instanceof SandboxStateError)) throw error;
    const said = t().commands;
    throw new UsageError(said.cannotOpenSandboxState(error.path, error.reason), {
      hint: said.cannotOpenEmbeddedStateHint,
    });
  }
  registerSecret(sandboxCredentials.password);
  return {
    baseUrl: sandbox.baseUrl,
    agentId: sandboxCredentials.agentId,
    password: sandboxCredentials.password,
    passwordSource: { source: 'sandbox' },
    network: { route: { kind: 'direct' }, description: 'direct' },
    ca: undefined,
    ...(replay ? { replayMisses: (type: string, id: string) => replay.takeMiss(type, id) } : {}),
    stop: sandbox.close,
  };
}
