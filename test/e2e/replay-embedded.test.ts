import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, isolatedEnv, runCli } from '../helpers/cli.js';

/**
 * What agentpay says of the embedded replay (docs/replay.md). `sandbox --replay <dir>`'s banner:
 * without --replay-fallback nothing but the recordings answers, so the sandbox's services,
 * accounts, credentials and codes are not offered; with it they are, as the sandbox's own.
 * `doctor --replay <dir>`: the connection settings are the replay's, not the sandbox's.
 */
const cassettes = mkdtempSync(join(tmpdir(), 'agentpay-replay-banner-'));
const answer = '{"TransactinID":1795000000000000001,"ResponseStatus":10}';
writeFileSync(
  join(cassettes, '0001-AccountCheck-3101.json'),
  JSON.stringify({
    format: 'agentpay-cassette/1',
    request: {
      RequestType: 'AccountCheck',
      Service: '3101',
      Account: '700000001',
      TransactionID: '1795000000000000001',
    },
    answer: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(answer).toString('base64'),
    },
  }),
);

/** The banner up to its last line (its one line under --json), then SIGTERM; exit 0. */
async function banner(...extra: string[]): Promise<string> {
  const args = [binPath, 'sandbox', '--replay', cassettes, '--port', '0', ...extra];
  const child = spawn(process.execPath, args, { env: isolatedEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    return await new Promise<string>((resolve, reject) => {
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        // The banner ends with how to stop it; --json is one line.
        if (/Ctrl\+C.*\n/.test(stdout) || (extra.includes('--json') && stdout.includes('\n'))) resolve(stdout);
      });
      child.on('exit', () => reject(new Error(`exited before its banner: ${stdout}`)));
    });
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
}

describe('agentpay sandbox --replay: its banner', () => {
  it('offers only the recordings when nothing else answers', async () => {
    const text = await banner();
    expect(text).toMatch(/^● replayed gateway listening on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(text).toContain(`replaying 1 recording from ${cassettes}; anything else gets HTTP 404`);
    expect(text).toContain('any agent id and password will do');
    for (const sandboxOnly of ['sandbox-demo-password', 'services:', 'accounts:', 'try:', '7011234567', 'codes:'])
      expect(text).not.toContain(sandboxOnly);
  });

  it('--json: the address and the recordings alone, as the banner', async () => {
    const line = JSON.parse((await banner('--json')).split('\n')[0] ?? '') as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(['baseUrl', 'replay']);
    expect(line.replay).toEqual({ directory: cassettes, recordings: 1, fallback: false });
  });

  it("with --replay-fallback, the sandbox's services and credentials as well", async () => {
    const text = await banner('--replay-fallback');
    expect(text).toContain('sandbox-demo-password');
    expect(text).toContain('try:');
    expect(text).toContain(`replaying 1 recording from ${cassettes}; the sandbox answers the rest`);
  });

  it("refuses the sandbox's faults, which break none of the recordings' answers, without --replay-fallback", async () => {
    for (const fault of [
      ['--garbage', 'shape'],
      ['--break', 'echo'],
      ['--drop-after-commit', '1'],
      ['--fail-rate', '1'],
    ]) {
      const result = await runCli(['sandbox', '--replay', cassettes, '--port', '0', ...fault], { env: isolatedEnv() });
      expect(result.code, fault.join(' ')).toBe(2);
      expect(result.stderr).toContain(`${fault[0]} breaks only what the sandbox answers: add --replay-fallback`);
    }
  });

  it('in Russian too', async () => {
    const text = await banner('--lang', 'ru');
    expect(text).toMatch(/^● воспроизводимый шлюз слушает http:/);
    expect(text).toContain('подойдут любой id агента и любой пароль');
    expect(text).not.toContain('sandbox-demo-password');
  });
});

describe('agentpay --replay doctor', () => {
  it('names the replay, not the sandbox, as where the connection settings come from', async () => {
    const result = await runCli(['--replay', cassettes, '--json', 'doctor'], { env: isolatedEnv() });
    const { settings, gateway } = JSON.parse(result.stdout.split('\n')[0] ?? '') as {
      settings: Record<string, { value: string | null; source: string }>;
      gateway: unknown;
    };
    // A made-up id has no recording: nothing to ask, and no exit 5 for a replay that works.
    expect(result.code, result.stderr).toBe(0);
    expect(gateway).toMatchObject({ ok: true, replay: { directory: cassettes, recordings: 1 } });
    for (const key of ['baseUrl', 'agentId', 'live'])
      expect(settings[key], key).toEqual({ value: '(the embedded replay)', source: 'replay' });
    expect(settings.password).toEqual({ value: '***', source: 'replay' });
    const russian = await runCli(['--replay', cassettes, '--lang', 'ru', 'doctor'], { env: isolatedEnv() });
    expect(russian.code, russian.stderr).toBe(0);
    expect(russian.stdout).toContain(`✓ 1 запись из ${cassettes}; шлюз не спрошен: у выдуманного id нет записи`);
    expect(russian.stdout).toMatch(/\(baseUrl\) +\(встроенное воспроизведение\) +воспроизведение\n/);
  });
});
