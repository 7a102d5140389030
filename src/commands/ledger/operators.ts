import { UsageError } from '../../errors.js';
import { optionRecord } from '../../options/values.js';
import { registerSecret, t } from '../../run-scope.js';
import type { CommandContext } from '../context.js';
import { administration } from './run.js';

/** `ledger add-operator`, `operators`, `remove-operator`: operators as database roles, with an
 * administrator's URL. What the database refuses is said as its refusal, exit 2: nothing changed. */

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
  const admin = await administration(context, 'add-operator');
  try {
    if (await admin.roleExists(role))
      throw new UsageError(t().ledger.roleExists(role), { hint: t().ledger.roleExistsHint });
    await admin.addOperator(role, supervisor, password).catch((error) => refused(error, 'add'));
    if (out.json) out.data(JSON.stringify({ ledger: admin.shown, role, supervisor, added: true }));
    else out.note(t().ledger.operatorAdded(role, supervisor, admin.shown));
  } finally {
    await admin.close();
  }
}

/** `agentpay ledger operators`: the operator roles, and which may approve. */
export async function runOperators(_raw: unknown, context: CommandContext): Promise<void> {
  const { out } = context;
  const admin = await administration(context, 'operators');
  try {
    const list = await admin.operators().catch((error) => refused(error, 'list'));
    if (out.json) {
      for (const role of list) out.data(JSON.stringify(role));
    } else if (list.length === 0) out.note(t().ledger.noOperators(admin.shown));
    else {
      const { operatorsTable } = await import('../../render/operators.js');
      out.data(operatorsTable(list, out.style, t(), out.tableWidth));
    }
  } finally {
    await admin.close();
  }
}

/** `agentpay ledger remove-operator <role>`: only a role that is one of agentpay's operators. */
export async function runRemoveOperator(raw: unknown, context: CommandContext): Promise<void> {
  const role = checkedRole(optionRecord(raw).role);
  const { out } = context;
  const admin = await administration(context, 'remove-operator');
  try {
    const [found] = await admin.operators(role).catch((error) => refused(error, 'list'));
    if (found === undefined)
      throw new UsageError(t().ledger.notAnOperator(role), { hint: t().ledger.notAnOperatorHint });
    await admin.removeOperator(role).catch((error) => refused(error, 'remove'));
    if (out.json) out.data(JSON.stringify({ ledger: admin.shown, role, removed: true }));
    else out.note(t().ledger.operatorRemoved(role, admin.shown));
  } finally {
    await admin.close();
  }
}
