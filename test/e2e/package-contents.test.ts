import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The package holds what the README's "Install" says it holds, and nothing a clone gathers: a copy
 * of the repository with a results file a bulk run wrote beside an example, a stray build file and
 * a stray file at the top is packed (dry run), and the list is compared file for file.
 */
const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The README's promise: bin/, the build's files the program runs, examples/ as committed. */
const promised = async (): Promise<string[]> => {
  const { stdout } = await run('git', ['ls-files', 'examples'], { cwd: repoRoot });
  const examples = stdout.split('\n').filter((line) => line !== '');
  const program = ['bin/agentpay.js', 'bin/package.json', 'dist/agentpay.cjs', 'dist/completion.cjs'];
  return [...program, 'dist/completion.json', ...examples, 'package.json', 'README.md'].sort();
};

describe('npm pack', () => {
  it('packs bin/, the bundle and the committed examples, never a results file or a stray', {
    timeout: 60_000,
  }, async () => {
    const copy = mkdtempSync(join(tmpdir(), 'agentpay-pack-'));
    const skipped = new Set(['node_modules', '.git']);
    cpSync(repoRoot, copy, { recursive: true, filter: (path) => !skipped.has(relative(repoRoot, path)) });
    const orders = 'key,service,account,currency,invoice-id,amount\nORD-1,101,7011234567,KZT,5002,\n';
    writeFileSync(join(copy, 'examples', 'orders.results.csv'), orders);
    writeFileSync(join(copy, 'examples', 'data-driven', 'top-ups.results.csv'), orders);
    writeFileSync(join(copy, 'dist', 'stray.js'), '');
    writeFileSync(join(copy, 'notes.txt'), '');

    const npmEnv = { ...process.env, npm_config_update_notifier: 'false' };
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: copy,
      env: npmEnv,
    });
    const packed = (JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((file) => file.path);
    expect(packed.sort()).toEqual(await promised());
  });
});
