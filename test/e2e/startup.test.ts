import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliResult, jsonLines, runCli } from '../helpers/cli.js';
import { sandboxWithEnv } from '../helpers/gateway-env.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * Runs bin/agentpay.js with a preloaded probe that lists, at exit, the npm packages the process
 * required and Node's built-ins it loaded: what a command costs at start-up is what it loads.
 */
async function runProbed(
  args: readonly string[],
  env: Record<string, string>,
): Promise<CliResult & { packages: string[]; builtins: string[] }> {
  const probe = join(mkdtempSync(join(tmpdir(), 'agentpay-probe-')), 'probe.cjs');
  const report =
    "JSON.stringify({ required: Object.keys(require.cache), builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)) })";
  writeFileSync(probe, `process.on('exit', () => process.stderr.write(\`probe \${${report}}\\n\`));\n`);
  const result = await runCli(args, { env, nodeArgs: ['--require', probe] });
  const { required, builtins } = JSON.parse(/^probe (.*)$/m.exec(result.stderr)?.[1] ?? '{}') as {
    required: string[];
    builtins: string[];
  };
  const packages = [
    ...new Set(
      required
        .map((path) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1])
        .filter((name) => name !== undefined),
    ),
  ];
  return { ...result, packages, builtins };
}

describe('start-up answers', () => {
  it('--version and -V print the package version', async () => {
    for (const flag of ['--version', '-V'])
      expect(await runCli([flag])).toEqual({ code: 0, stdout: `${packageVersion}\n`, stderr: '' });
  });

  it('--help and -h print the program help', async () => {
    for (const flag of ['--help', '-h']) {
      const help = await runCli([flag]);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: agentpay/);
    }
  });
});

describe('start-up of a command: the bundle, and only the packages its path needs', () => {
  it('`status <id> --json`: a real exchange over node:http, no npm package required', async () => {
    const { sandbox, env } = await sandboxWithEnv();
    try {
      const run = await runProbed(['status', '404404', '--json'], env);
      expect(run.code).toBe(3); // not found (unknown): a real exchange with the gateway took place
      expect(jsonLines(run.stdout)).toEqual([expect.objectContaining({ transactionId: '404404', state: 'unknown' })]);
      // commander, lossless-json and chalk are in the bundle; zod, yaml and pg stay unloaded.
      expect(run.packages).toEqual([]);
      expect(run.builtins).toContain('http');
    } finally {
      await sandbox.close();
    }
  });

  it('`status --from-file` (a batch): the same transport, no npm package required either', async () => {
    const { sandbox, env } = await sandboxWithEnv();
    try {
      const ids = join(env.HOME!, 'ids.txt');
      writeFileSync(ids, '404404\n404405\n');
      const run = await runProbed(['status', '--from-file', ids, '--json'], env);
      expect(run.code).toBe(3);
      expect(jsonLines(run.stdout)).toHaveLength(2);
      expect(run.packages).toEqual([]);
      expect(run.builtins).toContain('http');
    } finally {
      await sandbox.close();
    }
  });
});
