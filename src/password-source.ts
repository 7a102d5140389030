import { readFileSync } from 'node:fs';
import { UsageError } from './errors.js';
import type { Settings, Sourced } from './config.js';

/**
 * Where the agent password comes from, in order: --password-file, AGENTPAY_PASSWORD,
 * AGENTPAY_PASSWORD_FILE, the profile's password, the profile's passwordFile, and last a
 * hidden prompt on stderr when stdin is a terminal. Never an argv value: it would show in ps.
 */
export interface PasswordIo {
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
}

/** One trailing newline is what `echo secret > file` adds; it is not part of the password. */
function stripFinalNewline(value: string): string {
  return value.replace(/\r?\n$/, '');
}

async function readPasswordFile(path: string, where: string, io: PasswordIo): Promise<string> {
  let content: string;
  try {
    content = path === '-' ? await (await import('node:stream/consumers')).text(io.stdin) : readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the password file ${path} (${where}): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const password = stripFinalNewline(content);
  if (password === '') throw new UsageError(`the password file ${path} (${where}) is empty`);
  return password;
}

export async function resolvePassword(settings: Settings, io: PasswordIo): Promise<Sourced<string>> {
  const { env, profile } = settings;
  if (settings.passwordFileFlag !== undefined) {
    return { value: await readPasswordFile(settings.passwordFileFlag, '--password-file', io), source: 'flag', origin: '--password-file' };
  }
  if (env.AGENTPAY_PASSWORD) return { value: env.AGENTPAY_PASSWORD, source: 'env', origin: 'AGENTPAY_PASSWORD' };
  if (env.AGENTPAY_PASSWORD_FILE) {
    return {
      value: await readPasswordFile(env.AGENTPAY_PASSWORD_FILE, 'AGENTPAY_PASSWORD_FILE', io),
      source: 'env',
      origin: 'AGENTPAY_PASSWORD_FILE',
    };
  }
  if (profile?.password) return { value: profile.password, source: 'profile', origin: settings.configPath };
  if (profile?.passwordFile) {
    return { value: await readPasswordFile(profile.passwordFile, 'profile passwordFile', io), source: 'profile', origin: profile.passwordFile };
  }
  if (io.stdin.isTTY) {
    const { askPassword } = await import('./prompts.js');
    const value = await askPassword('Agent password', io);
    if (value === '') throw new UsageError('no password was entered');
    return { value, source: 'prompt' };
  }
  throw new UsageError('no agent password is set', {
    hint: 'set AGENTPAY_PASSWORD, or use --password-file <path> (- reads stdin), or a profile; or try --sandbox',
  });
}
