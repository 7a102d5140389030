import type pg from 'pg';
import type { OperatorRole } from '../team-ledger.js';

/** Operators as database roles (docs/desk-safety.md): a login role a person, in `agentpay_operator`
 * or `agentpay_supervisor`. The cluster's groups hold each database's rights; the triggers record
 * `session_user` as the operator of every row an operator role writes. */

const operatorGroup = 'agentpay_operator';
const supervisorGroup = 'agentpay_supervisor';

/** Migration 3: the trigger that writes who made a row. Schema-qualified, with its search_path
 * fixed: a temporary table named pg_roles in an operator's session cannot answer for it. */
export const operatorRolesMigration = `
CREATE FUNCTION agentpay_is_operator(who name) RETURNS boolean LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp AS $$
  SELECT EXISTS (
    SELECT 1 FROM pg_catalog.pg_auth_members m
    JOIN pg_catalog.pg_roles g ON g.oid = m.roleid
    JOIN pg_catalog.pg_roles r ON r.oid = m.member
    WHERE r.rolname = who AND g.rolname IN ('${operatorGroup}', '${supervisorGroup}'))
$$;
CREATE FUNCTION agentpay_recorded_by() RETURNS trigger LANGUAGE plpgsql
SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF public.agentpay_is_operator(session_user) THEN NEW.operator := session_user; END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER agentpay_transactions_recorded_by BEFORE INSERT ON agentpay_transactions
  FOR EACH ROW EXECUTE FUNCTION agentpay_recorded_by();
CREATE TRIGGER agentpay_records_recorded_by BEFORE INSERT ON agentpay_records
  FOR EACH ROW EXECUTE FUNCTION agentpay_recorded_by();
`;

/** What an operator may do, and nothing more: read the ledger, add intents and outcomes (never
 * change or remove them: no UPDATE or DELETE on them, and the append-only trigger besides), and
 * keep the index of open transactions (reconcile's FOR UPDATE needs UPDATE on it). */
const operatorRights = [
  // INSERT of the columns a record is made of, never its seq (the order others' records are told by).
  `REVOKE INSERT ON agentpay_transactions, agentpay_records FROM ${operatorGroup}`,
  `GRANT SELECT ON agentpay_transactions, agentpay_records TO ${operatorGroup}`,
  `GRANT INSERT (gateway, agent_id, transaction_id, service, account, amount, currency, invoice_id, at, operator, host,
    voucher) ON agentpay_transactions TO ${operatorGroup}`,
  `GRANT INSERT (record_id, transaction_seq, kind, at, source, state, view, answers_attempt, operator, host, overrides)
    ON agentpay_records TO ${operatorGroup}`,
  // No DELETE: only a final outcome closes a payment (desk-rules-schema.ts). UPDATE of one column
  // lets reconcile's FOR UPDATE lock its rows, and no LOCK TABLE of the whole set.
  `REVOKE UPDATE, DELETE, TRUNCATE ON agentpay_open FROM ${operatorGroup}`,
  `GRANT SELECT, INSERT, UPDATE (transaction_seq) ON agentpay_open TO ${operatorGroup}`,
  `GRANT SELECT ON agentpay_schema_migrations, agentpay_gateway_spellings TO ${operatorGroup}`,
  `GRANT USAGE ON SEQUENCE agentpay_transactions_seq_seq, agentpay_records_seq_seq TO ${operatorGroup}`,
  // Approvals: read, and changed only through the functions that check who is asking.
  `GRANT SELECT ON agentpay_approvals TO ${operatorGroup}`,
  `GRANT EXECUTE ON FUNCTION agentpay_request_approval(text, text, text, text, text, text, text, text, text, text[], integer),
    agentpay_decide_approval(text, text, text, text, text), agentpay_use_approval(text, text, text, uuid, text) TO ${operatorGroup}`,
  // Shifts and Z-reports: read, and opened and closed only through the functions.
  `GRANT SELECT ON agentpay_shifts, agentpay_z_reports TO ${operatorGroup}`,
  `GRANT EXECUTE ON FUNCTION agentpay_open_shift(), agentpay_close_shift(bigint, text, text) TO ${operatorGroup}`,
  // The desk's policy: the administrator's to set (ledger policy), everyone's to read.
  `GRANT SELECT ON agentpay_approval_thresholds, agentpay_desk_policy TO ${operatorGroup}`,
  // A bulk run's rows: kept before its Payments leave, read by its resume, never changed.
  `GRANT SELECT, INSERT ON agentpay_bulk_rows TO ${operatorGroup}`,
];

/** Whether the cluster has the operator groups. */
async function groupsExist(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query('SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = $1', [operatorGroup]);
  return rows.length > 0;
}

/** The rights of the operator group on this database's ledger (idempotent); with ifRolesExist, none when there are no groups. */
export async function grantOperatorRights(client: pg.Client, options: { ifRolesExist: boolean }): Promise<void> {
  if (options.ifRolesExist && !(await groupsExist(client))) return;
  for (const statement of operatorRights) await client.query(statement);
}

/** The two groups, made once for the cluster; another database's set-up making them at the same moment is fine. */
async function ensureGroups(client: pg.Client): Promise<void> {
  for (const statement of [
    `CREATE ROLE ${operatorGroup} NOLOGIN`,
    `CREATE ROLE ${supervisorGroup} NOLOGIN IN ROLE ${operatorGroup}`,
  ]) {
    await client.query(
      `DO $$ BEGIN ${statement}; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
    );
  }
}

const membersQuery = `
SELECT r.rolname AS role, bool_or(g.rolname = '${supervisorGroup}') AS supervisor, r.rolcanlogin AS can_login
FROM pg_catalog.pg_roles r
JOIN pg_catalog.pg_auth_members m ON m.member = r.oid
JOIN pg_catalog.pg_roles g ON g.oid = m.roleid
WHERE g.rolname IN ('${operatorGroup}', '${supervisorGroup}') AND r.rolname NOT IN ('${operatorGroup}', '${supervisorGroup}')
  AND ($1::text IS NULL OR r.rolname = $1)
GROUP BY r.rolname, r.rolcanlogin ORDER BY r.rolname`;

/** The operator roles, by name (one, when `role` is given). */
export async function operatorRoles(client: pg.Client, role?: string): Promise<OperatorRole[]> {
  const { rows } = await client.query<{ role: string; supervisor: boolean; can_login: boolean }>(membersQuery, [
    role ?? null,
  ]);
  return rows.map((row) => ({ role: row.role, supervisor: row.supervisor, canLogin: row.can_login }));
}

/** A login role for one person, with the SCRAM verifier of its password (the password itself is
 * never sent, so no server log can hold it). The role name was checked by the caller (its
 * characters are a plain identifier's). Throws the server's error (42710: it exists). */
export async function createOperator(
  client: pg.Client,
  role: string,
  supervisor: boolean,
  verifier: string,
): Promise<void> {
  await ensureGroups(client);
  await grantOperatorRights(client, { ifRolesExist: false });
  const group = supervisor ? supervisorGroup : operatorGroup;
  await client.query(
    `CREATE ROLE ${client.escapeIdentifier(role)} LOGIN PASSWORD ${client.escapeLiteral(verifier)} IN ROLE ${group}`,
  );
}

/** Removes an operator role (the caller checked it is one); what it recorded keeps its name. */
export async function dropOperator(client: pg.Client, role: string): Promise<void> {
  await client.query(`DROP ROLE ${client.escapeIdentifier(role)}`);
}
