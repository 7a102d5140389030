import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { englishLeft } from '../helpers/english-words.js';
import { envFor, sandboxWithEnv } from '../helpers/gateway-env.js';

/**
 * doctor's settings table in Russian: each setting named in Russian, its key (the config file's
 * word, as --json has it) beside it in parentheses; a switch's value said as да/нет.
 */
let sandbox: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  ({ sandbox } = await sandboxWithEnv());
  env = envFor(sandbox, { AGENTPAY_OPERATOR: 'кассир' });
});
afterAll(() => sandbox.close());

describe('doctor --lang ru', () => {
  it('names every setting in Russian, its key beside it; no English word left but the keys and paths', async () => {
    const json = JSON.parse((await runCli(['doctor', '--json'], { env })).stdout) as {
      settings: Record<string, unknown>;
    };
    const keys = Object.keys(json.settings);
    const result = await runCli(['--lang', 'ru', 'doctor'], { env });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    const heading = lines.findIndex((line) => line.startsWith('Настройки'));
    const rows = lines.slice(heading + 1, heading + 1 + keys.length);
    expect(rows.map((row) => /\(([A-Za-z]+)\)/.exec(row)?.[1])).toEqual(keys);
    for (const row of rows) expect(row, row).toMatch(/^ {2}[а-яёА-ЯЁ«id]/);
    expect(result.stdout).toMatch(/смены \(shifts\)\s+нет\s/);
    const withoutKeys = keys.reduce((text, key) => text.replaceAll(`(${key})`, ''), result.stdout);
    // The values shown as typed: `plain`, `local`, the profile's name.
    expect(englishLeft(withoutKeys, ['plain', 'local', 'default'])).toEqual([]);
  });
});
