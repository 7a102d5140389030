import { join, win32 } from 'node:path';

// What differs between the systems agentpay runs on, decided here alone. Pure: platform, environment and home
// are passed in, so every rule is unit-tested on Linux for Windows too (test/unit/platform.test.ts).

/** The signals a command stops on, each heard as the stop it means (main.ts listens for them). */
export interface StopSignalHeard {
  heard: NodeJS.Signals;
  as: 'SIGINT' | 'SIGTERM';
}

/** Where the config file lives: $XDG_CONFIG_HOME when set, on every system; else Windows keeps a
 * user's settings in %APPDATA% (roaming with the profile), and the others in ~/.config. */
export function configDirectory(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'agentpay');
  if (platform === 'win32') return win32.join(env.APPDATA || win32.join(home, 'AppData', 'Roaming'), 'agentpay');
  return join(home, '.config', 'agentpay');
}

/** Where the ledger and the sandbox's state live: $XDG_STATE_HOME when set; else on Windows in
 * %LOCALAPPDATA%, which never roams (a SQLite file must stay on this machine's disk), else ~/.local/state. */
export function stateDirectory(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, 'agentpay');
  if (platform === 'win32') return win32.join(env.LOCALAPPDATA || win32.join(home, 'AppData', 'Local'), 'agentpay');
  return join(home, '.local', 'state', 'agentpay');
}

/** Windows has no SIGTERM to hear (a service stop or taskkill ends the process outright): a console
 * sends Ctrl+C as SIGINT and Ctrl+Break as SIGBREAK, both a person's "stop", so exit 130. */
export function stopSignals(platform: NodeJS.Platform): readonly StopSignalHeard[] {
  if (platform === 'win32')
    return [
      { heard: 'SIGINT', as: 'SIGINT' },
      { heard: 'SIGBREAK', as: 'SIGINT' },
    ];
  return [
    { heard: 'SIGINT', as: 'SIGINT' },
    { heard: 'SIGTERM', as: 'SIGTERM' },
  ];
}

/** A lock file is linked into place on every system (NTFS has hard links too). Only Linux's /proc
 * tells a live holder from a new process that got its pid; elsewhere a live pid holds the lock. */
export function knowsProcessStart(platform: NodeJS.Platform): boolean {
  return platform === 'linux';
}

/** Files written for the desk (CSV of results and history) end lines in CRLF on every system:
 * RFC 4180, and what Excel on a desk's Windows expects; a results file follows its order file's own. */
export const deskFileLineEnd = '\r\n';
