import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';

export function stateDirectory(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'agentpay');
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
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'agentpay');
}
