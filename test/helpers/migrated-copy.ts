import { migrateLedger } from './desk-roles.js';
import { freshDatabase, type PostgresServer, sql } from './postgres.js';

/**
 * A new database for one test, its schema already as the first use's migrations leave it: a copy
 * (CREATE DATABASE ... TEMPLATE) of one migrated once per server by `ledger migrate`'s code
 * (desk-roles.ts migrateLedger). For tests whose subject is not that first use; it runs through
 * the bin, from an empty database, in team-ledger-sharing.test.ts and desk-operators.test.ts.
 */
const templates = new WeakMap<PostgresServer, Promise<string>>();
let copies = 0;

export async function migratedDatabase(server: PostgresServer): Promise<string> {
  let template = templates.get(server);
  if (template === undefined) {
    template = freshDatabase(server).then(async (url) => {
      await migrateLedger({ AGENTPAY_LEDGER: url });
      return new URL(url).pathname.slice(1);
    });
    templates.set(server, template);
  }
  const name = `ledger_${process.pid}_copy_${++copies}`;
  await sql(server.url(), `CREATE DATABASE ${name} TEMPLATE ${await template}`);
  return server.url(name);
}
