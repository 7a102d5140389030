/** Migration 10: what an operator's plain SQL still got past (docs/desk-safety.md, "What the database
 * enforces"): a gateway in the one form only, so no play money either; a bulk row and the transaction
 * under its TransactionID name one purchase; a shift opened by the clock. Safe to apply twice. */

// The form gatewayIdentity writes (protocol/gateway-identity.ts, WHATWG URL): lower-case host, IPv4 as four
// plain numbers, IPv6 as inet prints it, no user, no default port or leading zero in one, no dot segment,
// query, fragment or trailing slash. A rarer fixed point (IPv4 inside IPv6, a `[` in a path) is refused too.
const oneForm = `
CREATE OR REPLACE FUNCTION agentpay_gateway_in_one_form(gateway text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  part text[];
  host text;
BEGIN
  part := regexp_match(gateway,
    '^(https?)://(\\[[0-9a-f:]+\\]|[a-z0-9!"$&''()*+,;=_{}~.-]+)(:[1-9][0-9]{0,4})?((/[a-zA-Z0-9!$%&''()*+,.:;=@_|~-]*)*)$');
  IF part IS NULL OR part[4] ~ '/$' OR part[4] ~* '/(\\.|%2e){1,2}(/|$)' THEN RETURN false; END IF;
  IF part[3] IS NOT NULL AND (substr(part[3], 2)::integer > 65535
     OR part[1] || part[3] IN ('http:80', 'https:443')) THEN RETURN false; END IF;
  host := part[2];
  IF left(host, 1) = '[' THEN
    RETURN host = '[' || host(substr(host, 2, length(host) - 2)::inet) || ']';
  END IF;
  IF host IN ('localhost', 'localhost.') THEN RETURN false; END IF;
  -- A host whose last label is a number is an IPv4 address, which WHATWG writes one way only.
  IF substring(regexp_replace(host, '[.]$', '') from '[^.]*$') ~ '^([0-9]+|0x[0-9a-f]*)$' THEN
    RETURN host ~ '^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$';
  END IF;
  RETURN true;
EXCEPTION WHEN invalid_text_representation THEN
  RETURN false;
END $$;
${['agentpay_transactions', 'agentpay_approvals']
  .map(
    (table) => `
ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${table}_one_spelling;
ALTER TABLE ${table} ADD CONSTRAINT ${table}_one_spelling CHECK (
  public.agentpay_gateway_in_one_form(gateway) AND agent_id ~ '^(0|[1-9][0-9]{0,18})$') NOT VALID;`,
  )
  .join('')}
`;

// A bulk row is kept before its Payment leaves, so its TransactionID names no transaction yet; a transaction
// written under a kept row's TransactionID is that row's purchase. Another's run cannot be pointed elsewhere.
const boundRows = `
-- Two amounts as one decimal (1500 = 1500.00 = 1.5e3, protocol/money.ts sameDecimal), never as a float.
CREATE OR REPLACE FUNCTION agentpay_same_amount(a text, b text) RETURNS boolean LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp AS $$
  SELECT a = b OR CASE WHEN a ~ '^[0-9]+([.][0-9]*)?([eE][+-]?[0-9]{1,4})?$'
    AND b ~ '^[0-9]+([.][0-9]*)?([eE][+-]?[0-9]{1,4})?$' THEN a::numeric = b::numeric ELSE false END
$$;
CREATE INDEX IF NOT EXISTS agentpay_bulk_rows_by_transaction ON agentpay_bulk_rows (transaction_id);
CREATE OR REPLACE FUNCTION agentpay_guard_bulk_row() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM public.agentpay_transactions t WHERE t.transaction_id = NEW.transaction_id) THEN
    RAISE EXCEPTION 'transaction % is recorded already: a bulk row is kept before its payment', NEW.transaction_id
      USING ERRCODE = 'APBLK';
  END IF;
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER agentpay_bulk_rows_guarded BEFORE INSERT ON agentpay_bulk_rows
  FOR EACH ROW EXECUTE FUNCTION agentpay_guard_bulk_row();
CREATE OR REPLACE FUNCTION agentpay_guard_bulk_intent() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM public.agentpay_bulk_rows r WHERE r.transaction_id = NEW.transaction_id
      AND ((r.service, r.account, r.currency) IS DISTINCT FROM (NEW.service, NEW.account, NEW.currency)
        OR (r.invoice_id IS NOT NULL AND r.invoice_id IS DISTINCT FROM NEW.invoice_id)
        OR (r.amount IS NOT NULL AND NOT public.agentpay_same_amount(r.amount, NEW.amount)))) THEN
    RAISE EXCEPTION 'transaction % is a bulk row of another purchase', NEW.transaction_id USING ERRCODE = 'APBLK';
  END IF;
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER agentpay_transactions_bulk_bound BEFORE INSERT ON agentpay_transactions
  FOR EACH ROW EXECUTE FUNCTION agentpay_guard_bulk_intent();
`;

// now() is when the caller's transaction began, which it chooses: a shift held open in a transaction for
// hours would seem opened hours before it was.
const shiftByClock = `
CREATE OR REPLACE FUNCTION agentpay_open_shift() RETURNS SETOF agentpay_shifts LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RETURN QUERY INSERT INTO public.agentpay_shifts (operator, opened_at) VALUES (session_user, clock_timestamp()) RETURNING *;
EXCEPTION WHEN unique_violation THEN
  RAISE EXCEPTION '% has a shift open already', session_user USING ERRCODE = 'APSHO';
END $$;
`;

export const closedGapsMigration = `${oneForm}${boundRows}${shiftByClock}`;
