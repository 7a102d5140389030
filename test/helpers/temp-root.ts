import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest globalSetup: one temporary directory for the whole run, made the test workers'
 * TMPDIR (os.tmpdir() reads it), and removed when the run ends, so the homes, journals,
 * certificates and reports the tests make do not pile up in /tmp.
 */
export default function setup(): () => void {
  // Each vitest project runs the setup it extends: the first makes the directory, the others
  // keep it (a directory nested in another of mode 0700 is one PostgreSQL's user cannot reach).
  if (process.env.AGENTPAY_TEST_ROOT !== undefined) return () => {};
  const root = mkdtempSync(join(tmpdir(), 'agentpay-tests-'));
  process.env.TMPDIR = root;
  process.env.AGENTPAY_TEST_ROOT = root;
  return () => {
    rmSync(root, { recursive: true, force: true });
    delete process.env.AGENTPAY_TEST_ROOT;
  };
}
