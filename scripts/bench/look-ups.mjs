// The bench's look-up comparisons (scripts/bench.mjs): one `status`, a batch of them, and
// `reconcile` of a SQLite ledger, against bare node:http floors and a single read of the ledger.
import { join } from 'node:path';
import { expectAnswer, ok } from './checks.mjs';
import { copyLedger, importedLedger, writeJournal } from './inputs.mjs';
import { compare } from './measure.mjs';

/** `bench` (scripts/bench.mjs): the run's paths, `runsFor(standard)`, its sizes and ids. */
export function lookupComparisons({
  paths,
  runsFor,
  firstId,
  concurrency,
  sizes: { batchSize, ledgerEntries, memoryBatchSize },
}) {
  const { node, bin, floors, work } = paths;
  return {
    async status({ env, gateway }) {
      const id = firstId.toString();
      const [floor, status, depsOnly] = await compare({
        runs: runsFor(15),
        floor: { label: 'node:http', command: [node, [join(floors, 'status-one.mjs'), gateway.baseUrl, id], { env }] },
        candidates: [
          { label: 'agentpay', command: [node, [bin, 'status', id, '--json'], { env }] },
          { label: 'deps only', command: [node, [join(floors, 'deps-only.mjs'), gateway.baseUrl, id], { env }] },
        ],
        check: expectAnswer('"status":"10"'),
      });
      return [
        {
          target: 'single',
          what: '`agentpay status <id> --json`',
          floorLabel: 'bare `node:http` POST',
          floor,
          value: status,
          limit: 1.6,
        },
        {
          target: '(single)',
          what: 'reference, not agentpay: commander + lossless-json alone, same POST',
          floorLabel: 'bare `node:http` POST',
          floor,
          value: depsOnly,
        },
      ];
    },

    async batch({ env, gateway, ids }) {
      const [floor, status] = await compare({
        runs: runsFor(7),
        floor: {
          label: 'node:http',
          command: [node, [join(floors, 'status-batch.mjs'), gateway.baseUrl, ids, String(concurrency)], { env }],
        },
        candidates: [
          {
            label: 'agentpay',
            command: [
              node,
              [bin, 'status', '--from-file', ids, '--concurrency', String(concurrency), '--json'],
              { env },
            ],
          },
        ],
        check: ok(batchSize),
      });
      const what = `\`status --from-file\` ${batchSize.toLocaleString('en')} ids \`--concurrency ${concurrency} --json\``;
      return [
        {
          target: 'batch',
          what,
          floorLabel: `bare \`node:http\` keep-alive, ${concurrency} at a time`,
          floor,
          value: status,
          limit: 1.2,
        },
      ];
    },

    async reconcile({ env, gateway }) {
      const ledger = join(work, 'ledger.sqlite');
      const ledgerCopy = join(work, 'ledger-run.sqlite');
      const openEntries = await importedLedger(paths, env, ledger, (journal) =>
        writeJournal(journal, gateway.baseUrl, ledgerEntries, { firstId, unknownToGateway: memoryBatchSize }),
      );
      const [floor, reconcile] = await compare({
        runs: runsFor(7),
        floor: { label: 'read once', command: [node, [join(floors, 'read-ledger.mjs'), ledger], { env }] },
        // The bench gateway is not the embedded sandbox: its "not found" code is given, as for any gateway.
        candidates: [
          {
            label: 'agentpay',
            command: [
              node,
              [bin, 'reconcile', '--not-found-codes', '25', '--json'],
              { env: { ...env, AGENTPAY_LEDGER: ledgerCopy } },
            ],
          },
        ],
        // Each reconcile starts from the same ledger: the last run's outcomes are not in it.
        before: (side) => side.label === 'agentpay' && copyLedger(ledger, ledgerCopy),
        check: (side, result) => ok(side.label === 'agentpay' ? openEntries : 1)(side, result),
      });
      const what = `\`reconcile\`, SQLite ledger of ${ledgerEntries.toLocaleString('en')} transactions (${openEntries} open)`;
      return [
        {
          target: 'reconcile',
          what,
          floorLabel: 'read every record of the ledger once (node:sqlite)',
          floor,
          value: reconcile,
          limit: 2,
        },
      ];
    },
  };
}
