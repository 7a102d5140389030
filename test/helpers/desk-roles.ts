import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { openLedger, openLedgerAdministration } from '../../src/ledger/open-ledger.js';
import type { LedgerAdministration } from '../../src/ledger/team-ledger.js';
import { parseLedgerLocation } from '../../src/ledger-location.js';
import { stateDirectory } from '../../src/settings/directories.js';
import { amountsPerCurrency } from '../../src/settings/parsers.js';
import { runCli } from './cli.js';

/**
 * A desk's people as database roles (issue 28), made with an administrator's URL, each then
 * working from a HOME of its own whose ~/.pgpass holds its password, as the desk's set-up in
 * docs/desk-safety.md says.
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

/** Adds an operator role through the bin, as an administrator would (desk-operators.test.ts tests that command). */
export async function addOperatorByBin(
  adminEnv: Record<string, string>,
  role: string,
  supervisor = false,
): Promise<void> {
  const result = await runCli(
    ['ledger', 'add-operator', role, '--password-stdin', ...(supervisor ? ['--supervisor'] : [])],
    { env: adminEnv, input: `${passwordOf(role)}\n` },
  );
  expect(result.code, result.stderr).toBe(0);
}

/** The administrator's connection `ledger ...` opens for this env's AGENTPAY_LEDGER (commands/ledger/run.ts), in-process. */
async function withAdministration<T>(
  adminEnv: Record<string, string>,
  use: (admin: LedgerAdministration) => Promise<T>,
): Promise<T> {
  const location = parseLedgerLocation(adminEnv.AGENTPAY_LEDGER!, 'AGENTPAY_LEDGER');
  if (location.kind !== 'postgres') throw new Error(`not a team ledger: ${location.shown}`);
  const admin = await openLedgerAdministration(location, adminEnv);
  try {
    return await use(admin);
  } finally {
    await admin.close();
  }
}

// Set-up in-process with the code `ledger add-operator` and `ledger policy` run, without their checks of the
// flags (a role's name, a threshold's currency): those run through the bin in desk-operators.test.ts,
// desk-rules-database.test.ts and desk-rule-refusals.test.ts.

/** Adds an operator role as `ledger add-operator` does: the schema made, the role new, then made. */
export async function addOperator(adminEnv: Record<string, string>, role: string, supervisor = false): Promise<void> {
  await addOperators(adminEnv, [{ role, supervisor }]);
}

/** A desk's people added as addOperator adds each, all in one administrator's session. */
export async function addOperators(
  adminEnv: Record<string, string>,
  people: readonly { role: string; supervisor?: boolean }[],
): Promise<void> {
  await withAdministration(adminEnv, async (admin) => {
    for (const { role, supervisor = false } of people) {
      expect(await admin.roleExists(role), role).toBe(false);
      await admin.addOperator(role, supervisor, passwordOf(role));
    }
  });
}

/** Applies the schema's migrations as `ledger migrate` does (team-ledger-sharing.test.ts runs that command). */
export async function migrateLedger(adminEnv: Record<string, string>): Promise<void> {
  await withAdministration(adminEnv, (admin) => admin.migrate());
}

/** Sets the policy `ledger policy <flags>` would (--approval-threshold, --shifts), read as that command reads them. */
export async function setPolicy(adminEnv: Record<string, string>, flags: readonly string[]): Promise<void> {
  const given = new Map<string, string>();
  for (let index = 0; index < flags.length; index += 2) given.set(flags[index]!, flags[index + 1]!);
  expect([...given.keys()].filter((flag) => flag !== '--approval-threshold' && flag !== '--shifts')).toEqual([]);
  const threshold = given.get('--approval-threshold');
  const shifts = given.get('--shifts');
  await withAdministration(adminEnv, (admin) =>
    admin.changePolicy({
      approvalOver: threshold === undefined ? new Map() : amountsPerCurrency('--approval-threshold')(threshold, 'flag'),
      clearApprovalOver: [],
      shiftsRequired: shifts === undefined ? undefined : shifts === 'required',
    }),
  );
}

/** A terminal's env (made by the caller, with its own HOME) that reaches the ledger as `role`, its password in ~/.pgpass. */
export function asRole(env: Record<string, string>, adminUrl: string, role: string): Record<string, string> {
  const url = new URL(adminUrl);
  writeFileSync(join(env.HOME!, '.pgpass'), `127.0.0.1:${url.port}:*:${role}:${passwordOf(role)}\n`, {
    mode: 0o600,
  });
  return { ...env, AGENTPAY_LEDGER: roleUrl(adminUrl, role) };
}

/** A ledger location for use in this process, whose ~/.pgpass is not the role's: a role's password in its URL. */
export function withRolePassword(ledger: string): string {
  if (!ledger.startsWith('postgres')) return ledger;
  const url = new URL(ledger);
  if (url.password === '') url.password = passwordOf(decodeURIComponent(url.username));
  return url.href;
}

/** Opens the shift of the role `env` reaches the ledger as (asRole), as `shift open` does; that
 * command runs through the bin in desk-shifts.test.ts. */
export async function openShift(env: Record<string, string>): Promise<void> {
  const url = new URL(withRolePassword(env.AGENTPAY_LEDGER!));
  const location = parseLedgerLocation(url.href, 'AGENTPAY_LEDGER');
  if (location.kind !== 'postgres') throw new Error(`not a team ledger: ${location.shown}`);
  const opening = { operator: env.AGENTPAY_OPERATOR ?? '', env, stateDirectory: stateDirectory(env), byDefault: false };
  const ledger = await openLedger(location, { ...opening, note: () => undefined });
  try {
    expect((await ledger.team!.shifts.open()).operator).toBe(decodeURIComponent(url.username));
  } finally {
    await ledger.close();
  }
}

/** A plain SQL session as the role, as psql or a modified client would have it. */
export async function sessionAs(adminUrl: string, role: string): Promise<pg.Client> {
  const url = new URL(roleUrl(adminUrl, role));
  url.password = passwordOf(role);
  const client = new pg.Client(url.href);
  await client.connect();
  return client;
}
