// The bench's team-ledger comparisons (scripts/bench.mjs): `pay` and `reconcile` with the
// ledger in PostgreSQL on loopback, against the same commands with the SQLite ledger.
import { join } from 'node:path';
import { expectAnswer, ok } from './checks.mjs';
import { copyLedger, importedLedger, writeOpenJournal } from './inputs.mjs';
import { compare } from './measure.mjs';

/**
 * `bench` (scripts/bench.mjs): the run's paths, `runsFor(standard)`, its sizes and ids;
 * `ledgerServerFor(env)` gives the one PostgreSQL server, started on first use.
 */
export function teamComparisons({ paths, runsFor, firstId, purchase, ledgerServerFor, sizes: { openEntries } }) {
  const { node, bin, work } = paths;
  return {
    async teamPay({ env }) {
      const ledgerServer = await ledgerServerFor(env);
      const { payArgs } = purchase;
      const teamLedger = await ledgerServer.migrated('bench_pay');
      const [local, team] = await compare({
        runs: runsFor(15),
        floor: {
          label: 'sqlite',
          command: [node, [bin, ...payArgs], { env: { ...env, AGENTPAY_LEDGER: join(work, 'pay-ledger.sqlite') } }],
        },
        candidates: [
          { label: 'postgres', command: [node, [bin, ...payArgs], { env: { ...env, AGENTPAY_LEDGER: teamLedger } }] },
        ],
        check: expectAnswer('"status":"10"'),
      });
      return [
        {
          target: 'team',
          what: '`pay --invoice-id --json`, the ledger in PostgreSQL on loopback',
          floorLabel: 'the same `pay`, the SQLite ledger',
          floor: local,
          value: team,
          limit: 1.3,
        },
      ];
    },

    async teamReconcile({ env, gateway }) {
      const ledgerServer = await ledgerServerFor(env);
      // 100,000 open transactions the bench gateway holds as paid: each run settles them all, from a fresh copy.
      const ledger = join(work, 'open-ledger.sqlite');
      const ledgerCopy = join(work, 'open-ledger-run.sqlite');
      await importedLedger(paths, env, ledger, (journal) =>
        writeOpenJournal(journal, gateway.baseUrl, openEntries, firstId),
      );
      await ledgerServer.template('bench_open_template', {
        gateway: gateway.baseUrl,
        firstId,
        count: openEntries,
        settled: false,
      });
      const reconcileArgs = ['reconcile', '--not-found-codes', '25', '--json'];
      const teamEnv = { ...env, AGENTPAY_LEDGER: ledgerServer.url('bench_open') };
      const [localReconcile, teamReconcile] = await compare({
        runs: runsFor(3),
        warmUp: 0,
        floor: {
          label: 'sqlite',
          command: [node, [bin, ...reconcileArgs], { env: { ...env, AGENTPAY_LEDGER: ledgerCopy } }],
        },
        candidates: [{ label: 'postgres', command: [node, [bin, ...reconcileArgs], { env: teamEnv }] }],
        before: async (side) =>
          side.label === 'sqlite'
            ? copyLedger(ledger, ledgerCopy)
            : await ledgerServer.copy('bench_open_template', 'bench_open'),
        check: ok(openEntries),
      });
      const what = `\`reconcile\` of ${openEntries.toLocaleString('en')} open transactions, the ledger in PostgreSQL`;
      return [
        {
          target: 'team',
          what,
          floorLabel: 'the same `reconcile`, the SQLite ledger',
          floor: localReconcile,
          value: teamReconcile,
          limit: 1.5,
        },
      ];
    },
  };
}
