import { type ChildProcess, type ChildProcessByStdio, type SpawnOptions, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const binPath = fileURLToPath(new URL('../../bin/agentpay.js', import.meta.url));

/**
 * AGENTPAY_TEST_BINARY=<file>: the tests run that single executable (npm run package) instead of
 * `node bin/agentpay.js`, with a PATH that holds no node (.ci/run, README "Install").
 */
export const testBinary = process.env.AGENTPAY_TEST_BINARY || undefined;

/** What a shell or PATH runs as `agentpay`: the shebang bin, or the single executable. */
export const agentpayExecutable = testBinary ?? binPath;

/** The file to spawn and its first arguments; a single executable takes node's options from NODE_OPTIONS. */
export function agentpayProcess(
  args: readonly string[],
  nodeArgs: readonly string[] = [],
): { file: string; args: string[]; nodeOptions: string | undefined } {
  if (testBinary === undefined)
    return { file: process.execPath, args: [...nodeArgs, binPath, ...args], nodeOptions: undefined };
  return { file: testBinary, args: [...args], nodeOptions: nodeArgs.length > 0 ? nodeArgs.join(' ') : undefined };
}

/** Spawns agentpay as agentpayProcess says; `nodeArgs` go to node (`--require`, `--enable-source-maps`). */
export function spawnAgentpay(
  args: readonly string[],
  options: SpawnOptions & { env: Record<string, string>; nodeArgs?: readonly string[] },
): ChildProcessByStdio<Writable | null, Readable, Readable> {
  const started = agentpayProcess(args, options.nodeArgs);
  const env = started.nodeOptions === undefined ? options.env : { ...options.env, NODE_OPTIONS: started.nodeOptions };
  return spawn(started.file, started.args, { stdio: ['pipe', 'pipe', 'pipe'], ...options, env }) as ChildProcessByStdio<
    Writable | null,
    Readable,
    Readable
  >;
}

let nodelessPath: string | undefined;

/** In binary mode, PATH's programs but node (links in a directory of their own), as on a desk without Node. */
export function testPath(): string {
  const path = process.env.PATH ?? '';
  if (testBinary === undefined) return path;
  if (nodelessPath !== undefined) return nodelessPath;
  const dir = mkdtempSync(join(tmpdir(), 'agentpay-nodeless-path-'));
  // The first directory holding a name wins, as in a PATH look-up.
  const taken = new Set(['node', 'nodejs', 'npm', 'npx', 'corepack']);
  for (const from of path.split(':').filter((entry) => entry !== '' && existsSync(entry))) {
    for (const name of readdirSync(from)) {
      if (taken.has(name)) continue;
      taken.add(name);
      symlinkSync(join(from, name), join(dir, name));
    }
  }
  nodelessPath = dir;
  return dir;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh, empty home for one test: config, state and journal land here, never in ~. */
export function isolatedEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), 'agentpay-test-'));
  const env: Record<string, string> = {
    PATH: testPath(),
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_STATE_HOME: join(home, 'state'),
    NO_COLOR: '1',
    // The run's temporary directory (temp-root.ts): a command's scratch files go there too.
    TMPDIR: tmpdir(),
    ...extra,
  };
  return env;
}

/** Gathers a child's stdout and stderr, and hands them over with its exit code when it closes. */
export function collectOutput(
  child: ChildProcess,
  resolve: (result: CliResult) => void,
  reject: (error: Error) => void,
): void {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.on('error', reject);
  child.on('close', (code) => resolve({ code, stdout, stderr }));
}

/**
 * Runs bin/agentpay.js with the given args, env and stdin, and collects everything.
 * `nodeArgs` go to node before the script (`--require`, `--enable-source-maps`).
 */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; input?: string; nodeArgs?: readonly string[] } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnAgentpay(args, { env: options.env ?? isolatedEnv(), nodeArgs: options.nodeArgs ?? [] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    runsInFlight.set(child, { args, stderr: () => stderr });
    child.on('close', () => runsInFlight.delete(child));
    collectOutput(child, resolve, reject);
    child.stdin?.end(options.input ?? '');
  });
}

/** Runs not ended yet: one a timed-out test left is ended by ended-runs.ts, before it pays in the next test. */
export const runsInFlight = new Map<ChildProcess, { args: readonly string[]; stderr: () => string }>();

export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Every CSI escape sequence (colour and the like). */
export const ansiEscape = /\u001b\[/;
