import { spawn } from 'node:child_process';
import { binPath, type CliResult, collectOutput } from './cli.js';

/** Single-quoted for sh: the paths come from mkdtemp, but quote them anyway. */
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * Runs bin/agentpay.js in a mount namespace of its own (`unshare --mount --map-root-user`, no
 * privilege needed where user namespaces are allowed) in which `readOnly` directories are
 * bind-mounted read-only and `emptyReadOnly` ones are covered by an empty read-only tmpfs. The
 * mounts vanish with the process; the rest of the machine never sees them. Writes there fail
 * with EROFS, as on a file system mounted read-only.
 */
export function runCliReadOnly(
  args: readonly string[],
  options: { env: Record<string, string>; readOnly?: readonly string[]; emptyReadOnly?: readonly string[] },
): Promise<CliResult> {
  const mounts = [
    ...(options.readOnly ?? []).map(
      (dir) => `mount --bind ${quote(dir)} ${quote(dir)} && mount -o remount,bind,ro ${quote(dir)}`,
    ),
    ...(options.emptyReadOnly ?? []).map((dir) => `mount -t tmpfs -o ro,size=64k tmpfs ${quote(dir)}`),
  ];
  const script = `set -e; ${mounts.join('; ')}; exec "$@"`;
  return new Promise((resolve, reject) => {
    const child = spawn(
      'unshare',
      ['--mount', '--map-root-user', 'sh', '-c', script, 'sh', process.execPath, binPath, ...args],
      {
        env: options.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    collectOutput(child, resolve, reject);
  });
}
