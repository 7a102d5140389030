import { describe, expect, it } from 'vitest';
import {
  configDirectory,
  deskFileLineEnd,
  knowsProcessStart,
  stateDirectory,
  stopSignals,
} from '../../src/platform.js';

describe('the platform rules', () => {
  const windowsHome = 'C:\\Users\\desk';
  const windowsEnv = { APPDATA: 'C:\\Users\\desk\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\desk\\AppData\\Local' };

  it('keeps the config in $XDG_CONFIG_HOME, else %APPDATA% on Windows, else ~/.config', () => {
    expect(configDirectory({ XDG_CONFIG_HOME: '/x/config' }, 'linux', '/home/desk')).toBe('/x/config/agentpay');
    expect(configDirectory({}, 'linux', '/home/desk')).toBe('/home/desk/.config/agentpay');
    expect(configDirectory({}, 'darwin', '/Users/desk')).toBe('/Users/desk/.config/agentpay');
    expect(configDirectory(windowsEnv, 'win32', windowsHome)).toBe('C:\\Users\\desk\\AppData\\Roaming\\agentpay');
    expect(configDirectory({}, 'win32', windowsHome)).toBe('C:\\Users\\desk\\AppData\\Roaming\\agentpay');
  });

  it('keeps the ledger in $XDG_STATE_HOME, else %LOCALAPPDATA% on Windows (never roaming), else ~/.local/state', () => {
    expect(stateDirectory({ XDG_STATE_HOME: '/x/state' }, 'linux', '/home/desk')).toBe('/x/state/agentpay');
    expect(stateDirectory({}, 'linux', '/home/desk')).toBe('/home/desk/.local/state/agentpay');
    expect(stateDirectory(windowsEnv, 'win32', windowsHome)).toBe('C:\\Users\\desk\\AppData\\Local\\agentpay');
    expect(stateDirectory({}, 'win32', windowsHome)).toBe('C:\\Users\\desk\\AppData\\Local\\agentpay');
  });

  it('stops on SIGINT and SIGTERM, and on Windows on Ctrl+C and Ctrl+Break, both an interrupt', () => {
    expect(stopSignals('linux')).toEqual([
      { heard: 'SIGINT', as: 'SIGINT' },
      { heard: 'SIGTERM', as: 'SIGTERM' },
    ]);
    expect(stopSignals('win32')).toEqual([
      { heard: 'SIGINT', as: 'SIGINT' },
      { heard: 'SIGBREAK', as: 'SIGINT' },
    ]);
    expect(stopSignals('win32').map(({ heard }) => heard)).not.toContain('SIGTERM');
  });

  it("judges a lock's holder by /proc on Linux only, by its pid elsewhere", () => {
    expect(knowsProcessStart('linux')).toBe(true);
    expect(knowsProcessStart('win32')).toBe(false);
    expect(knowsProcessStart('darwin')).toBe(false);
  });

  it('ends the lines of files for the desk in CRLF on every system', () => {
    expect(deskFileLineEnd).toBe('\r\n');
  });
});
