// A process that appends transactions to a journal through agentpay's own writer (the built
// dist/ledger/file/writer.js), for tests that compact the journal while processes append to it.
//   node journal-appender.mjs <journal> <seed> <first-id> <count>
// The records are those of appenderRecords (journal-appender-records.mjs), so the test knows
// every line written. Each transaction uses a writer of its own now and then, as separate
// `pay` processes would, so fresh journals are opened while compactions rename them away.
import { JournalWriter } from '../../dist/ledger/file/writer.js';
import { appenderTransactions } from './journal-appender-records.mjs';

//   node journal-appender.mjs <journal> <seed> <first-id> <count> grouped
// appends through appendGrouped instead, five transactions' records at once, as the
// payments of `pay --from-file` go: one write and one fsync for each group.
const [path, seed, firstId, count, mode] = process.argv.slice(2);
let writer = new JournalWriter(path);
const transactions = appenderTransactions(Number(seed), Number(firstId), Number(count));
if (mode === 'grouped') {
  for (let index = 0; index < transactions.length; index += 5) {
    if (index % 15 === 0) {
      writer.close();
      writer = new JournalWriter(path);
    }
    await Promise.all(
      transactions.slice(index, index + 5).flatMap((records) => records.map((record) => writer.appendGrouped(record))),
    );
  }
} else {
  for (const [index, records] of transactions.entries()) {
    if (index % 3 === 0) {
      writer.close();
      writer = new JournalWriter(path);
    }
    for (const record of records) writer.append(record);
  }
}
writer.close();
