// The bench's purchase comparisons (scripts/bench.mjs): `check`, `pay` and a bulk `pay
// --from-file` against their bare node:http floors, on whichever bench gateway is given (the
// plain one, or the one that answers after a network's latency).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectAnswer, ok } from './checks.mjs';
import { compare, peakRss } from './measure.mjs';

/** A dynamic service of the sandbox, an account it accepts, and one of its vouchers. */
const purchase = { service: '101', account: '7011234567', currency: 'KZT', invoiceId: '5002' };
/** The one `pay` both the pay rows and the team rows time (a repeat is allowed: every run pays it again). */
purchase.payArgs = [
  'pay',
  '--service',
  purchase.service,
  '--account',
  purchase.account,
  '--currency',
  purchase.currency,
  '--invoice-id',
  purchase.invoiceId,
  '--allow-duplicate',
  '--json',
];
/** Rows of the orders file `pay --from-file` pays, and of the one its peak RSS is taken on. */
const bulkRows = 1_000;
const bulkMemoryRows = 10_000;

/** `paths`: node, bin, floors, work; `runsFor(standard)`: the runs of a comparison; `concurrency` of a bulk run. */
export function purchaseComparisons({ paths, runsFor, concurrency }) {
  const { node, bin, floors, work } = paths;
  const { service, account, currency, invoiceId } = purchase;

  async function checkRows(env, gateway, { target, limit }) {
    const [floor, check] = await compare({
      runs: runsFor(15),
      floor: {
        label: 'node:http',
        command: [node, [join(floors, 'check-one.mjs'), gateway.baseUrl, service, account, currency], { env }],
      },
      candidates: [
        {
          label: 'agentpay',
          command: [
            node,
            [bin, 'check', '--service', service, '--account', account, '--currency', currency, '--json'],
            { env: { ...env, AGENTPAY_BASE_URL: gateway.baseUrl } },
          ],
        },
      ],
      check: expectAnswer('"status":"10"'),
    });
    return [
      {
        target,
        what: '`agentpay check --json` (AccountCheck, voucher list)',
        floorLabel: 'bare `node:http`, same AccountCheck',
        floor,
        value: check,
        limit,
      },
    ];
  }

  async function payRows(env, gateway, { target, limit }) {
    const { payArgs } = purchase;
    const [floor, pay] = await compare({
      runs: runsFor(15),
      floor: {
        label: 'node:http',
        command: [
          node,
          [join(floors, 'pay-invoice.mjs'), gateway.baseUrl, service, account, currency, invoiceId],
          { env },
        ],
      },
      // The same purchase each run: let the duplicate check find the earlier ones, and pay (what it costs is measured).
      candidates: [
        {
          label: 'agentpay',
          command: [node, [bin, ...payArgs], { env: { ...env, AGENTPAY_BASE_URL: gateway.baseUrl } }],
        },
      ],
      check: expectAnswer('"status":"10"'),
    });
    const what =
      '`agentpay pay --invoice-id --json` (AccountCheck, the duplicate check, Payment, two SQLite commits fsynced)';
    return [{ target, what, floorLabel: 'bare `node:http`, same two exchanges, no ledger', floor, value: pay, limit }];
  }

  async function bulkRowsOf(env, gateway, { target, limit, memory = false }) {
    const ledger = join(work, 'bulk-ledger.sqlite');
    const bulkEnv = { ...env, AGENTPAY_BASE_URL: gateway.baseUrl, AGENTPAY_LEDGER: ledger };
    // Each run a file of new accounts, its own results file and a new ledger: the ledger keeps a
    // run's rows, so the same file changed would be refused, and a rerun would only skip its rows.
    let round = 0;
    const orders = join(work, 'orders.csv');
    const writeOrders = (rows) => {
      round++;
      const lines = Array.from(
        { length: rows },
        (_, i) => `K${i + 1},${service},bulk-${target}-${round}-${i + 1},${invoiceId}`,
      );
      writeFileSync(orders, `key,service,account,invoice-id\n${lines.join('\n')}\n`);
      for (const file of [
        'orders.results.csv',
        'bulk-ledger.sqlite',
        'bulk-ledger.sqlite-wal',
        'bulk-ledger.sqlite-shm',
      ])
        rmSync(join(work, file), { force: true });
    };
    const bulkArgs = ['pay', '--from-file', orders, '--yes', '--json', '--concurrency', String(concurrency)];
    const [floor, bulk] = await compare({
      runs: runsFor(5),
      warmUp: 1,
      before: () => writeOrders(bulkRows),
      floor: {
        label: 'node:http',
        command: [node, [join(floors, 'bulk-pay.mjs'), gateway.baseUrl, orders, String(concurrency)], { env }],
      },
      candidates: [{ label: 'agentpay', command: [node, [bin, ...bulkArgs], { env: bulkEnv }] }],
      check: ok(bulkRows),
    });
    const what = `\`pay --from-file\` ${bulkRows.toLocaleString('en')} rows, --concurrency ${concurrency} (AccountCheck + Payment a row, intents and outcomes committed in SQLite, results file)`;
    const rows = [
      {
        target,
        what,
        floorLabel: `bare \`node:http\`, same exchanges, ${concurrency} at a time, no ledger`,
        floor,
        value: bulk,
        limit,
      },
    ];
    if (!memory) return rows;
    writeOrders(bulkMemoryRows);
    const peak = await peakRss(paths, bulkArgs, bulkEnv);
    const problem = ok(bulkMemoryRows)(undefined, peak.result);
    if (problem) throw new Error(`peak RSS run: ${problem}\n${peak.result.stderr}`);
    rows.push({
      target: 'memory',
      what: `peak RSS, \`pay --from-file\` ${bulkMemoryRows.toLocaleString('en')} rows`,
      floorLabel: peak.how,
      megabytes: peak.kilobytes / 1024,
      limitMb: 150,
    });
    return rows;
  }

  return { checkRows, payRows, bulkRows: bulkRowsOf, purchase };
}
