import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pgPass from 'pgpass';
import { LedgerUnreachableError } from '../../errors.js';
import type { LedgerLocation } from '../../ledger-location.js';
import { redactSecrets } from '../../run-scope.js';

/** A connection to the team ledger with node-postgres (docs/team-ledger.md says why that
 * driver). What the URL leaves out comes from the standard PG* variables and the password
 * file (~/.pgpass, or PGPASSFILE), as for psql; TLS as `sslmode` says (libpq's meanings). */

/** libpq's sslmode values; pg's own reading of them differs (it verifies for "require"). */
const sslModes = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
type SslMode = (typeof sslModes)[number];

/** The URL's TLS parameters as node's TLS options; the URL without them for pg, which would read them its own way. */
function tlsOf(
  url: URL,
  env: NodeJS.ProcessEnv,
): { ssl: pg.ClientConfig['ssl']; mode: SslMode; connectionString: string } {
  const given = url.searchParams.get('sslmode') ?? env.PGSSLMODE ?? 'disable';
  if (!(sslModes as readonly string[]).includes(given)) {
    throw new LedgerUnreachableError(
      url.host,
      `sslmode ${JSON.stringify(given)} is not one of ${sslModes.join(', ')}`,
      {
        hint: 'give sslmode=require (encrypted) or verify-full (encrypted and verified)',
      },
    );
  }
  const mode = given as SslMode;
  // libpq's defaults: ~/.postgresql/root.crt (and postgresql.crt, .key) when the URL and PG* say nothing.
  const file = (name: string, variable: string, fallback: string) => {
    const given = url.searchParams.get(name) ?? env[variable];
    const path = given || join(homedir(), '.postgresql', fallback);
    if (!given && !existsSync(path)) return undefined;
    return readFileSync(path, 'utf8');
  };
  const stripped = new URL(url.href);
  for (const name of ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'uselibpqcompat'])
    stripped.searchParams.delete(name);
  const connectionString = stripped.href;
  if (mode === 'disable' || mode === 'allow') return { ssl: false, mode, connectionString };
  const [ca, cert, key] = [
    file('sslrootcert', 'PGSSLROOTCERT', 'root.crt'),
    file('sslcert', 'PGSSLCERT', 'postgresql.crt'),
    file('sslkey', 'PGSSLKEY', 'postgresql.key'),
  ];
  const files = { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
  // libpq's meanings: prefer, require: encrypted, unchecked (require checks against a root certificate if any);
  // verify-ca: the CA, not the host name; verify-full: both. Without a root certificate file verify-* check
  // against Node's public CAs, where libpq would refuse to connect.
  if (mode === 'prefer' || (mode === 'require' && !ca))
    return { ssl: { ...files, rejectUnauthorized: false }, mode, connectionString };
  if (mode === 'verify-ca' || mode === 'require')
    return { ssl: { ...files, checkServerIdentity: () => undefined }, mode, connectionString };
  return { ssl: files, mode, connectionString };
}

/** The password from ~/.pgpass (or PGPASSFILE) for the host, port, database and user the connection ends up with. */
function passwordFile(parameters: {
  host: string;
  port: number;
  database: string;
  user: string;
}): Promise<string | undefined> {
  return new Promise((resolve) => pgPass(parameters, resolve));
}

/** Why a connection failed, in a few words: the errno code, the server's refusal, or pg's message,
 * with the database password blanked should the driver's words quote it (nothing later looks). */
export function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  return redactSecrets(typeof message === 'string' && message !== '' ? message : String(error));
}

export interface LedgerConnection {
  client: pg.Client;
  /** Set once the connection is gone (the server went away): every later query fails at once. */
  readonly lost: { error?: unknown };
}

/** Connects, or throws LedgerUnreachableError naming the ledger (its password as ***). */
export async function connectLedger(
  location: LedgerLocation & { kind: 'postgres' },
  env: NodeJS.ProcessEnv,
): Promise<LedgerConnection> {
  const url = new URL(location.url);
  let tls: ReturnType<typeof tlsOf>;
  try {
    tls = tlsOf(url, env);
  } catch (error) {
    if (error instanceof LedgerUnreachableError) throw error;
    // A certificate file that cannot be read: nothing was sent anywhere.
    throw new LedgerUnreachableError(location.shown, `cannot read its TLS files: ${reasonOf(error)}`, {
      cause: error,
      hint: 'check sslrootcert, sslcert and sslkey (or PGSSLROOTCERT, PGSSLCERT, PGSSLKEY)',
    });
  }
  const { ssl, mode, connectionString } = tls;
  const hasPassword = url.password !== '' || url.searchParams.has('password') || Boolean(env.PGPASSWORD);
  const open = async (tls: pg.ClientConfig['ssl']): Promise<LedgerConnection> => {
    const client = new pg.Client({
      connectionString,
      ssl: tls,
      application_name: 'agentpay',
      connectionTimeoutMillis: 10_000,
      // A server that stops answering mid-query must not hold a payment's outcome forever.
      query_timeout: 30_000,
      keepAlive: true,
    });
    // The password file, read by us: pg's own reading of it is deprecated and prints a warning.
    // Set after construction, since pg's reading of the URL would replace a password option with
    // the URL's empty one; pg calls it with the host, port, database and user it resolved.
    if (!hasPassword) (client as unknown as { password: unknown }).password = passwordFile;
    const lost: LedgerConnection['lost'] = {};
    // An idle connection the server closes emits 'error'; unheard, it would end the process.
    client.on('error', (error) => (lost.error ??= error));
    client.on('end', () => (lost.error ??= new Error('the connection was closed')));
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return { client, lost };
  };
  try {
    try {
      return await open(ssl);
    } catch (error) {
      // prefer: encrypted if the server can, plain if it cannot (libpq).
      if (mode === 'prefer' && /does not support SSL/i.test(reasonOf(error))) return await open(false);
      throw error;
    }
  } catch (error) {
    throw new LedgerUnreachableError(location.shown, reasonOf(error), { cause: error });
  }
}

/** Sends the server its Terminate and lets the process go: every write was awaited before, so
 * waiting for the server to close the socket would only hold the command's exit. */
export function letGo(connection: LedgerConnection): void {
  void connection.client.end().catch(() => undefined);
  (connection.client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
}
