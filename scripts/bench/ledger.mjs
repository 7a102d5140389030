// The bench's team ledger (scripts/bench.mjs): a real PostgreSQL server on loopback
// (scripts/postgres-server.mjs), and ledgers filled in bulk by SQL, as a desk's months would
// leave them. Each run that changes a ledger gets a fresh copy of a template database.
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { startPostgres } from '../postgres-server.mjs';

export async function startLedgerServer({ node, bin }, env) {
  const server = await startPostgres();
  const admin = async (text) => {
    const client = new pg.Client(server.url());
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };
  /** An empty database with agentpay's schema (made by `agentpay ledger migrate`). */
  async function migrated(name) {
    await admin(`DROP DATABASE IF EXISTS ${name}`);
    await admin(`CREATE DATABASE ${name}`);
    const result = spawnSync(node, [bin, 'ledger', 'migrate'], {
      env: { ...env, AGENTPAY_LEDGER: server.url(name) },
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`ledger migrate: ${result.stderr}`);
    return server.url(name);
  }
  return {
    url: server.url,
    migrated,
    /**
     * A template of `count` transactions from `firstId` for this gateway and agent 1001: each
     * an intent (its attempt), and, when `settled`, a final outcome too; the rest open.
     */
    async template(name, { gateway, firstId, count, settled }) {
      const url = await migrated(name);
      const client = new pg.Client(url);
      await client.connect();
      try {
        await client.query(
          `INSERT INTO agentpay_transactions (gateway, agent_id, transaction_id, service, account, amount, currency, invoice_id, at, operator, host)
           SELECT $1, '1001', ($2::numeric + i)::text, '201', 'bench-' || i, '100.00', 'KZT', NULL, timestamptz '2026-01-01' + i * interval '1 second', 'bench', 'bench'
           FROM generate_series(0, $3 - 1) i`,
          [gateway, firstId.toString(), count],
        );
        await client.query(
          `INSERT INTO agentpay_records (record_id, transaction_seq, kind, at, operator, host)
           SELECT gen_random_uuid(), seq, 'attempt', at, operator, host FROM agentpay_transactions ORDER BY seq`,
        );
        if (settled) {
          await client.query(
            `INSERT INTO agentpay_records (record_id, transaction_seq, kind, at, source, state, view, operator, host)
             SELECT gen_random_uuid(), seq, 'outcome', at, 'payment', 'success', jsonb_build_object(
               'transactionId', transaction_id, 'requestId', (9007199254740993 + seq)::text, 'type', 'Payment', 'status', '10', 'state', 'success',
               'message', 'Успех', 'service', service, 'account', account, 'amount', amount, 'currency', currency, 'exchangeRate', '1', 'serviceCurrency', 'KZT'),
               operator, host
             FROM agentpay_transactions ORDER BY seq`,
          );
        } else {
          await client.query('INSERT INTO agentpay_open (transaction_seq) SELECT seq FROM agentpay_transactions');
        }
        await client.query('VACUUM ANALYZE');
      } finally {
        await client.end();
      }
      return url;
    },
    /** A fresh copy of a template, under `name` (dropped first). */
    async copy(template, name) {
      await admin(`DROP DATABASE IF EXISTS ${name}`);
      await admin(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      return server.url(name);
    },
    stop: () => server.remove(),
  };
}
