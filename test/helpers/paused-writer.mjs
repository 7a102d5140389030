// A long-lived journal writer (as a reconcile would be), for tests that pause it (pause-at.cjs):
//   node --require pause-at.cjs paused-writer.mjs <journal>
// Appends AGENTPAY_TEST_RECORDS' `first` at once (opening the journal), then, once the file
// <AGENTPAY_TEST_PAUSE_DIR>/write.go appears, `next`, armed to pause after its fsync.
import { existsSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { JournalWriter } from '../../dist/ledger/file/writer.js';

const [journal] = process.argv.slice(2);
const directory = process.env.AGENTPAY_TEST_PAUSE_DIR;
const records = JSON.parse(process.env.AGENTPAY_TEST_RECORDS);
const writer = new JournalWriter(journal);
writer.append(records.first);
// The journal is open: the test may now cut it.
writeFileSync(`${directory}/writer.ready`, '');
while (!existsSync(`${directory}/write.go`)) await sleep(5);
globalThis.agentpayTestArm();
writer.append(records.next);
writer.close();
