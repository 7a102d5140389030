import { homedir, userInfo } from 'node:os';
import { configDirectory as platformConfigDirectory, stateDirectory as platformStateDirectory } from '../platform.js';

export function stateDirectory(env: NodeJS.ProcessEnv): string {
  return platformStateDirectory(env, process.platform, homedir());
}

/** The system user name, as `whoami` gives it; "unknown" where there is none (a uid without a passwd entry). */
export function defaultOperator(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}

export function configDirectory(env: NodeJS.ProcessEnv): string {
  return platformConfigDirectory(env, process.platform, homedir());
}
