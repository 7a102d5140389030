// The bench's scale comparisons (scripts/bench.mjs): peak RSS of a large `status` batch, of
// `history` and of `--sandbox` on a large state, and `reconcile --registry` of a busy day's registry.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ok } from './checks.mjs';
import { importedLedger, writeIds, writeJournal, writeRegistry, writeSandboxState } from './inputs.mjs';
import { compare, peakRss } from './measure.mjs';

/**
 * `bench` (scripts/bench.mjs): the run's paths, `runsFor(standard)`, its sizes and ids;
 * `ledgerServerFor(env)` gives the one PostgreSQL server, started on first use.
 */
export function scaleComparisons({
  paths,
  runsFor,
  firstId,
  concurrency,
  ledgerServerFor,
  sizes: { batchSize, memoryBatchSize, historyEntries, registryEntries, sandboxEntries },
}) {
  const { node, bin, floors, work } = paths;
  return {
    async memory({ env, ids }) {
      const manyIds = join(work, 'ids-100000.txt');
      await writeIds(manyIds, firstId, memoryBatchSize);
      const memory = await peakRss(
        paths,
        ['status', '--from-file', manyIds, '--concurrency', String(concurrency), '--json'],
        env,
      );
      const memoryProblem = ok(memoryBatchSize)(undefined, memory.result);
      if (memoryProblem) throw new Error(`peak RSS run: ${memoryProblem}\n${memory.result.stderr}`);
      const small = await peakRss(
        paths,
        ['status', '--from-file', ids, '--concurrency', String(concurrency), '--json'],
        env,
      );
      const megabytes = memory.kilobytes / 1024;
      const what = `peak RSS, \`status --from-file\` ${memoryBatchSize.toLocaleString('en')} ids (${batchSize.toLocaleString('en')} ids: ${(small.kilobytes / 1024).toFixed(0)} MB)`;
      return [{ target: 'memory', what, floorLabel: memory.how, megabytes, limitMb: 120 }];
    },

    async sandboxState({ env, ids }) {
      // The embedded sandbox's state (a SQLite file) holding 200,000 payments: a Status batch of
      // 5,000 of them, each answered from the file; peak RSS must not follow the state.
      const home = join(work, 'sandbox-state');
      await writeSandboxState(join(home, 'agentpay', 'sandbox-state.sqlite'), firstId, sandboxEntries);
      const args = ['--sandbox', '--json', 'status', '--from-file', ids, '--concurrency', String(concurrency)];
      const memory = await peakRss(paths, args, { ...env, XDG_STATE_HOME: home });
      const problem = ok(batchSize)(undefined, memory.result);
      if (problem) throw new Error(`--sandbox status peak RSS run: ${problem}\n${memory.result.stderr}`);
      rmSync(home, { recursive: true });
      const held = `its state holding ${sandboxEntries.toLocaleString('en')} payments`;
      const what = `peak RSS, \`--sandbox status --from-file\` ${batchSize.toLocaleString('en')} ids, ${held} (${(memory.result.ms / 1000).toFixed(1)} s)`;
      return [{ target: 'memory', what, floorLabel: memory.how, megabytes: memory.kilobytes / 1024, limitMb: 150 }];
    },

    async history({ env }) {
      // A SQLite ledger of 1,000,000 transactions, each in the table: peak RSS must not follow it.
      const ledger = join(work, 'ledger-history.sqlite');
      await importedLedger(paths, env, ledger, (journal) =>
        writeJournal(journal, 'sandbox', historyEntries, { firstId, unknownToGateway: memoryBatchSize }),
      );
      const rows = [];
      for (const json of [true, false]) {
        const args = [...(json ? ['--json'] : []), 'history', '--ledger', ledger];
        const memory = await peakRss(paths, args, env);
        const seconds = memory.result.ms / 1000;
        // A line per transaction; the table adds its top border, its heading and its bottom border.
        const { code, lines } = memory.result;
        if (code !== 0 || lines !== historyEntries + (json ? 0 : 3))
          throw new Error(`history run: exit ${code}, ${lines} lines\n${memory.result.stderr}`);
        const what = `peak RSS, \`history${json ? ' --json' : ''}\` of ${historyEntries.toLocaleString('en')} transactions in SQLite (${seconds.toFixed(1)} s)`;
        rows.push({ target: 'memory', what, floorLabel: memory.how, megabytes: memory.kilobytes / 1024, limitMb: 150 });
      }
      rmSync(ledger);
      // The same in a PostgreSQL ledger: the rows stream a page at a time.
      const ledgerServer = await ledgerServerFor(env);
      const teamLedger = await ledgerServer.template('bench_history', {
        gateway: 'sandbox',
        firstId,
        count: historyEntries,
        settled: true,
      });
      const memory = await peakRss(paths, ['--json', 'history'], { ...env, AGENTPAY_LEDGER: teamLedger });
      if (memory.result.code !== 0 || memory.result.lines !== historyEntries)
        throw new Error(
          `history run (PostgreSQL): exit ${memory.result.code}, ${memory.result.lines} lines\n${memory.result.stderr}`,
        );
      const what = `peak RSS, \`history --json\` of ${historyEntries.toLocaleString('en')} transactions in PostgreSQL (${(memory.result.ms / 1000).toFixed(1)} s)`;
      rows.push({ target: 'memory', what, floorLabel: memory.how, megabytes: memory.kilobytes / 1024, limitMb: 150 });
      return rows;
    },

    async registry({ env }) {
      // The provider's registry of a busy day (200,000 rows) against a ledger of the same
      // payments; the ledger's days are UTC days here, as the registry's are written.
      // The ledger --sandbox reads is its own, in its state directory (docs/sandbox.md).
      const registryState = join(work, 'registry-state');
      mkdirSync(join(registryState, 'agentpay'), { recursive: true });
      const ledger = join(registryState, 'agentpay', 'sandbox-ledger.sqlite');
      const registry = join(work, 'registry.tsv');
      const inputs = { firstId, unknownToGateway: 1_000_000_000 };
      await importedLedger(paths, env, ledger, (journal) => writeJournal(journal, 'sandbox', registryEntries, inputs));
      const different = await writeRegistry(registry, registryEntries, inputs);
      const registryEnv = { ...env, TZ: 'UTC', XDG_STATE_HOME: registryState };
      const args = ['--sandbox', '--json', 'reconcile', '--registry', registry];
      // The open transactions are listed as paid: "different", exit 1; everything else agrees.
      const agrees = (side, result) =>
        side?.label === 'floor'
          ? ok(1)(side, result)
          : result.code !== 1
            ? `exit ${result.code ?? result.signal}`
            : result.lines !== different
              ? `${result.lines} lines, not ${different}`
              : undefined;
      const [floor, reconcile] = await compare({
        runs: runsFor(5),
        floor: {
          label: 'floor',
          command: [node, [join(floors, 'read-registry.mjs'), registry, ledger], { env: registryEnv }],
        },
        candidates: [{ label: 'agentpay', command: [node, [bin, ...args], { env: registryEnv }] }],
        check: agrees,
      });
      const memory = await peakRss(paths, args, registryEnv);
      const memoryProblem = agrees(undefined, memory.result);
      if (memoryProblem)
        throw new Error(`reconcile --registry peak RSS run: ${memoryProblem}\n${memory.result.stderr}`);
      const count = registryEntries.toLocaleString('en');
      return [
        {
          target: 'registry',
          what: `\`reconcile --registry\`, a ${count}-row registry against a SQLite ledger of ${count} payments (${different} differ)`,
          floorLabel: 'read the registry once (stream, split lines) and every record of the ledger (node:sqlite)',
          floor,
          value: reconcile,
          limit: 2,
        },
        {
          target: 'memory',
          what: `peak RSS, the same \`reconcile --registry\``,
          floorLabel: memory.how,
          megabytes: memory.kilobytes / 1024,
          limitMb: 200,
        },
      ];
    },
  };
}
