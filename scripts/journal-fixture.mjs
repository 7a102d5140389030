// A journal of N transactions as agentpay writes it, for measuring the readers at scale
// (docs/performance.md, "History and reconcile at scale"): the bench's own journal
// (scripts/bench/inputs.mjs), for the sandbox gateway, every 5,000th transaction still open.
//   node scripts/journal-fixture.mjs <path> <transactions>
import { writeJournal } from './bench/inputs.mjs';

const [path, count] = process.argv.slice(2);
if (!path || !/^\d+$/.test(count ?? '')) {
  console.error('usage: node scripts/journal-fixture.mjs <path> <transactions>');
  process.exit(2);
}
const open = await writeJournal(path, 'sandbox', Number(count), {
  firstId: 1795289214527958198n,
  unknownToGateway: 1_000_000_000,
});
console.log(JSON.stringify({ path, transactions: Number(count), open }));
