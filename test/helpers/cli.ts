import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const binPath = fileURLToPath(new URL('../../bin/agentpay.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh, empty home for one test: config, state and journal land here, never in ~. */
export function isolatedEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), 'agentpay-test-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_STATE_HOME: join(home, 'state'),
    NO_COLOR: '1',
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
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), binPath, ...args], {
      env: options.env ?? isolatedEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    runsInFlight.set(child, { args, stderr: () => stderr });
    child.on('close', () => runsInFlight.delete(child));
    collectOutput(child, resolve, reject);
    child.stdin.end(options.input ?? '');
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
