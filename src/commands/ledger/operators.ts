import { UsageError } from '../../errors.js';
import type { LedgerLocation } from '../../ledger-location.js';
import { optionRecord } from '../../options/values.js';
import { registerSecret, t } from '../../run-scope.js';
import type { CommandContext } from '../context.js';
import { postgresLocation } from './run.js';

/**
 * `ledger add-operator`, `ledger operators`, `ledger remove-operator`: operators as database
 * roles (ledger/postgres/roles.ts), run with an administrator's URL. What the database refuses
 * (no right to create roles) is said as its refusal, exit 2: nothing changed.
 */

/** A plain identifier, so the role is the same name in psql, ~/.pgpass and the ledger's rows. */
const roleName = /^(?!pg_)[a-z_][a-z0-9_]{0,62}$/;

function checkedRole(raw: unknown): string {
  const role = String(raw);
  if (!roleName.test(role) || role.startsWith('agentpay_'))
    throw new UsageError(t().ledger.badRoleName(role), { hint: t().ledger.badRoleNameHint });
  return role;
}

/** The server's refusal of the administrator's statement, said as such (42501: not allowed). */
export function refused(error: unknown, what: keyof ReturnType<typeof t>['ledger']['operatorWhat']): never {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code) || typeof message !== 'string') throw error;
  throw new UsageError(t().ledger.refusedByDatabase(t().ledger.operatorWhat[what], message), {
    cause: error,
    hint: t().ledger.needsAdministrator,
  });
}

export async function adminConnection(context: CommandContext, what: string) {
  const location: LedgerLocation & { kind: 'postgres' } = postgresLocation(context, what);
  const [{ connectLedger }, roles] = await Promise.all([
    import('../../ledger/postgres/connect.js'),
    import('../../ledger/postgres/roles.js'),
  ]);
  const { client } = await connectLedger(location, context.settings.env);
  return { client, roles, location };
}

/** `agentpay ledger add-operator <role> [--supervisor] --password-stdin`. */
export async function runAddOperator(raw: unknown, context: CommandContext): Promise<void> {
  const options = optionRecord(raw);
  const role = checkedRole(options.role);
  const supervisor = options.supervisor === true;
  const { out } = context;
  if (options.passwordStdin !== true)
    throw new UsageError(t().ledger.emptyPassword, { hint: t().ledger.passwordStdinHint });
  const password = (await process.getBuiltinModule('node:stream/consumers').text(out.stdin)).replace(/\r?\n$/, '');
  if (password === '') throw new UsageError(t().ledger.emptyPassword, { hint: t().ledger.passwordStdinHint });
  registerSecret(password);
  const [{ scramVerifier }, { ensureSchema }] = await Promise.all([
    import('../../ledger/postgres/scram-verifier.js'),
    import('../../ledger/postgres/schema.js'),
  ]);
  const { client, roles, location } = await adminConnection(context, 'add-operator');
  try {
    await ensureSchema(client, location.shown);
    if ((await client.query('SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = $1', [role])).rows.length > 0)
      throw new UsageError(t().ledger.roleExists(role), { hint: t().ledger.roleExistsHint });
    await roles
      .createOperator(client, role, supervisor, scramVerifier(password))
      .catch((error) => refused(error, 'add'));
    if (out.json) out.data(JSON.stringify({ ledger: location.shown, role, supervisor, added: true }));
    else out.note(t().ledger.operatorAdded(role, supervisor, location.shown));
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `agentpay ledger operators`: the operator roles, and which may approve. */
export async function runOperators(_raw: unknown, context: CommandContext): Promise<void> {
  const { out } = context;
  const { client, roles, location } = await adminConnection(context, 'operators');
  try {
    const list = await roles.operatorRoles(client).catch((error) => refused(error, 'list'));
    if (out.json) {
      for (const role of list) out.data(JSON.stringify(role));
    } else if (list.length === 0) out.note(t().ledger.noOperators(location.shown));
    else {
      const { operatorsTable } = await import('../../render/operators.js');
      out.data(operatorsTable(list, out.style, t(), out.tableWidth));
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `agentpay ledger remove-operator <role>`: only a role that is one of agentpay's operators. */
export async function runRemoveOperator(raw: unknown, context: CommandContext): Promise<void> {
  const role = checkedRole(optionRecord(raw).role);
  const { out } = context;
  const { client, roles, location } = await adminConnection(context, 'remove-operator');
  try {
    const [found] = await roles.operatorRoles(client, role).catch((error) => refused(error, 'list'));
    if (found === undefined)
      throw new UsageError(t().ledger.notAnOperator(role), { hint: t().ledger.notAnOperatorHint });
    await roles.dropOperator(client, role).catch((error) => refused(error, 'remove'));
    if (out.json) out.data(JSON.stringify({ ledger: location.shown, role, removed: true }));
    else out.note(t().ledger.operatorRemoved(role, location.shown));
  } finally {
    await client.end().catch(() => undefined);
  }
}
