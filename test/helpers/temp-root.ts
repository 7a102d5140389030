import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest globalSetup: one temporary directory for the whole run, made the test workers'
 * TMPDIR (os.tmpdir() reads it), and removed when the run ends, so the homes, journals,
 * certificates and reports the tests make do not pile up in /tmp.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'agentpay-tests-'));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
