import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { UsageError } from './errors.js';
import { registerSecret, t } from './run-scope.js';
import { locatePassword } from './settings/password.js';
import type { Settings } from './settings/resolve.js';
import type { Sourced } from './settings/sources.js';

// Reads the agent password from where settings/password.ts locates it, or asks for it; registered as a secret
// (secrets.ts) the moment it is known.
export interface PasswordIo {
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
  /** Tells the user of a password file its group may read (a warning, not a refusal). */
  warn?: (message: string) => void;
}

/** One trailing newline is what `echo secret > file` adds; it is not part of the password. */
function stripFinalNewline(value: string): string {
  return value.replace(/\r?\n$/, '');
}

/** A file's permission bits as chmod writes them (0644). */
const modeOf = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');
const reasonOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

// A password file anyone may read holds no secret: refused unless --insecure-password-file; group-readable
// draws a warning. The mode is read from the opened file, so the file checked is the file read.
function readProtectedFile(
  path: string,
  where: string,
  allowWorldReadable: boolean,
  warn: (message: string) => void,
): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new UsageError(t().commands.passwordUnreadable(path, where, reasonOf(error)));
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isFile() && (stats.mode & 0o004) !== 0 && !allowWorldReadable) {
      throw new UsageError(t().commands.passwordWorldReadable(path, where, modeOf(stats.mode)), {
        hint: t().commands.passwordWorldReadableHint(path),
      });
    }
    if (stats.isFile() && (stats.mode & 0o040) !== 0 && (stats.mode & 0o004) === 0) {
      // Readable by its group only: used (a shared service group may be meant), with the same
      // advice ssh gives for a key and agentpay for a config file holding a password.
      warn(t().commands.passwordGroupReadable(path, where, modeOf(stats.mode)));
    }
    return readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(t().commands.passwordUnreadable(path, where, reasonOf(error)));
  } finally {
    closeSync(fd);
  }
}

async function readPasswordFile(
  path: string,
  where: string,
  io: PasswordIo,
  allowWorldReadable: boolean,
): Promise<string> {
  // A built-in taken when a password is read from stdin, not loaded with this module.
  const content =
    path === '-'
      ? await process.getBuiltinModule('node:stream/consumers').text(io.stdin)
      : readProtectedFile(path, where, allowWorldReadable, io.warn ?? (() => undefined));
  const password = stripFinalNewline(content);
  if (password === '') throw new UsageError(t().commands.passwordEmpty(path, where));
  return password;
}

async function findPassword(settings: Settings, io: PasswordIo): Promise<Sourced<string>> {
  const location = locatePassword(settings, io.stdin.isTTY === true);
  switch (location.kind) {
    case 'value':
      return { value: location.value, source: location.source, origin: location.origin };
    case 'file': {
      const value = await readPasswordFile(location.path, location.origin, io, settings.insecurePasswordFile);
      return { value, source: location.source, origin: location.origin };
    }
    case 'prompt': {
      const { askPassword } = await import('./prompts.js');
      const value = await askPassword(t().settings.passwordPrompt, io);
      if (value === '') throw new UsageError(t().settings.noPasswordEntered);
      return { value, source: 'prompt' };
    }
    case 'none':
      throw new UsageError(t().settings.noPassword, {
        hint: t().settings.noPasswordHint,
      });
  }
}

export async function resolvePassword(settings: Settings, io: PasswordIo): Promise<Sourced<string>> {
  const password = await findPassword(settings, io);
  registerSecret(password.value);
  return password;
}
