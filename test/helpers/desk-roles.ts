import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { runCli } from './cli.js';

/**
 * A desk's people as database roles (issue 28): made through the bin with an administrator's
 * URL, each then working from a HOME of its own whose ~/.pgpass holds its password, as the desk's
 * set-up in docs/desk-safety.md says.
 */

/** The role's URL: the administrator's with the user swapped and no password (that is in ~/.pgpass). */
export function roleUrl(adminUrl: string, role: string): string {
  const url = new URL(adminUrl);
  url.username = role;
  url.password = '';
  return url.href;
}

/** The role's password, the same in every test (each role is made in a database of its own test). */
export const passwordOf = (role: string) => `${role}-secret-pw`;

/** Adds an operator role through the bin, as an administrator would. */
export async function addOperator(adminEnv: Record<string, string>, role: string, supervisor = false): Promise<void> {
  const result = await runCli(
    ['ledger', 'add-operator', role, '--password-stdin', ...(supervisor ? ['--supervisor'] : [])],
    { env: adminEnv, input: `${passwordOf(role)}\n` },
  );
  expect(result.code, result.stderr).toBe(0);
}

/** A terminal's env (made by the caller, with its own HOME) that reaches the ledger as `role`, its password in ~/.pgpass. */
export function asRole(env: Record<string, string>, adminUrl: string, role: string): Record<string, string> {
  const url = new URL(adminUrl);
  writeFileSync(join(env.HOME!, '.pgpass'), `127.0.0.1:${url.port}:*:${role}:${passwordOf(role)}\n`, {
    mode: 0o600,
  });
  return { ...env, AGENTPAY_LEDGER: roleUrl(adminUrl, role) };
}

/** A plain SQL session as the role, as psql or a modified client would have it. */
export async function sessionAs(adminUrl: string, role: string): Promise<pg.Client> {
  const url = new URL(roleUrl(adminUrl, role));
  url.password = passwordOf(role);
  const client = new pg.Client(url.href);
  await client.connect();
  return client;
}
