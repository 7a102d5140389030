// A SQLite ledger of N transactions, for measuring the readers at scale (docs/performance.md,
// "History and reconcile at scale"): the bench's own journal (scripts/bench/inputs.mjs), for the
// sandbox gateway, every 5,000th transaction still open, loaded by `agentpay ledger import`.
// Run after `npm run build`:
//   node scripts/ledger-fixture.mjs <ledger.sqlite> <transactions>
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importedLedger, writeJournal } from './bench/inputs.mjs';

const [path, count] = process.argv.slice(2);
if (!path || !/^\d+$/.test(count ?? '')) {
  console.error('usage: node scripts/ledger-fixture.mjs <ledger.sqlite> <transactions>');
  process.exit(2);
}
const paths = { node: process.execPath, bin: fileURLToPath(new URL('../bin/agentpay.js', import.meta.url)) };
const home = mkdtempSync(join(tmpdir(), 'agentpay-ledger-fixture-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_STATE_HOME: join(home, 'state'), NO_COLOR: '1' };
try {
  const open = await importedLedger(paths, env, path, (journal) =>
    writeJournal(journal, 'sandbox', Number(count), { firstId: 1795289214527958198n, unknownToGateway: 1_000_000_000 }),
  );
  console.log(JSON.stringify({ path, transactions: Number(count), open }));
} finally {
  rmSync(home, { recursive: true, force: true });
}
