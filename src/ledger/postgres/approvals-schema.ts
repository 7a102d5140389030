/** Migration 4: the two-person rule (docs/desk-safety.md, "Approval"). Requests change only through
 * SECURITY DEFINER functions that compare session_user with the requester, on the database's
 * clock; each refusal has a SQLSTATE of its own (AP…), worded by approvals.ts. */
export const approvalsMigration = `
CREATE TABLE agentpay_approvals (
  seq bigserial PRIMARY KEY,
  gateway text NOT NULL,
  agent_id text NOT NULL,
  transaction_id text NOT NULL,
  service text NOT NULL,
  account text NOT NULL,
  amount text NOT NULL,
  currency text NOT NULL,
  invoice_id text,
  voucher text,
  needs text[] NOT NULL,
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  decision text CHECK (decision IN ('approved', 'declined')),
  decided_by text,
  decided_at timestamptz,
  reason text,
  CONSTRAINT agentpay_approvals_owner UNIQUE (gateway, agent_id, transaction_id),
  CONSTRAINT agentpay_approvals_decided CHECK ((decision IS NULL) = (decided_by IS NULL)),
  CONSTRAINT agentpay_approvals_second_person CHECK (decided_by IS DISTINCT FROM requested_by)
);
CREATE FUNCTION agentpay_is_supervisor(who name) RETURNS boolean LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp AS $$
  SELECT EXISTS (
    SELECT 1 FROM pg_catalog.pg_auth_members m
    JOIN pg_catalog.pg_roles g ON g.oid = m.roleid
    JOIN pg_catalog.pg_roles r ON r.oid = m.member
    WHERE r.rolname = who AND g.rolname = 'agentpay_supervisor')
$$;
CREATE FUNCTION agentpay_request_approval(
  p_gateway text, p_agent_id text, p_transaction_id text, p_service text, p_account text, p_amount text,
  p_currency text, p_invoice_id text, p_voucher text, p_needs text[], p_ttl_seconds integer
) RETURNS timestamptz LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE expires timestamptz := now() + make_interval(secs => least(greatest(p_ttl_seconds, 60), 86400));
BEGIN
  IF EXISTS (SELECT 1 FROM agentpay_transactions t
             WHERE t.gateway = p_gateway AND t.agent_id = p_agent_id AND t.transaction_id = p_transaction_id) THEN
    RAISE EXCEPTION 'transaction % is in the ledger already', p_transaction_id USING ERRCODE = 'APTXN';
  END IF;
  INSERT INTO agentpay_approvals (gateway, agent_id, transaction_id, service, account, amount, currency,
    invoice_id, voucher, needs, requested_by, requested_at, expires_at)
  VALUES (p_gateway, p_agent_id, p_transaction_id, p_service, p_account, p_amount, p_currency,
    p_invoice_id, p_voucher, p_needs, session_user, now(), expires)
  ON CONFLICT ON CONSTRAINT agentpay_approvals_owner DO NOTHING;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'transaction % has a request already', p_transaction_id USING ERRCODE = 'APTXN';
  END IF;
  RETURN expires;
END $$;
CREATE FUNCTION agentpay_decide_approval(p_transaction_id text, p_decision text, p_reason text)
RETURNS SETOF agentpay_approvals LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE request agentpay_approvals;
BEGIN
  IF p_decision NOT IN ('approved', 'declined') THEN
    RAISE EXCEPTION 'a decision is approved or declined' USING ERRCODE = 'APNON';
  END IF;
  IF NOT agentpay_is_supervisor(session_user) THEN
    RAISE EXCEPTION '% is not a supervisor role', session_user USING ERRCODE = 'APSUP';
  END IF;
  SELECT * INTO request FROM agentpay_approvals a WHERE a.transaction_id = p_transaction_id FOR UPDATE;
  IF NOT FOUND THEN RAISE EXCEPTION 'no request for %', p_transaction_id USING ERRCODE = 'APNON'; END IF;
  IF request.requested_by = session_user THEN
    RAISE EXCEPTION '% requested it: a second person decides', session_user USING ERRCODE = 'APOWN';
  END IF;
  IF request.decision IS NOT NULL THEN
    RAISE EXCEPTION '% was % already', p_transaction_id, request.decision USING ERRCODE = 'APDON';
  END IF;
  IF request.expires_at <= now() THEN
    RAISE EXCEPTION 'the request for % expired', p_transaction_id USING ERRCODE = 'APEXP';
  END IF;
  RETURN QUERY UPDATE agentpay_approvals a
    SET decision = p_decision, decided_by = session_user, decided_at = now(), reason = p_reason
    WHERE a.seq = request.seq RETURNING a.*;
END $$;
CREATE FUNCTION agentpay_use_approval(p_gateway text, p_agent_id text, p_transaction_id text, p_record_id uuid, p_host text)
RETURNS TABLE (attempt_seq bigint, service text, account text, amount text, currency text, invoice_id text,
  voucher text, requested_by text, decided_by text) LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  request agentpay_approvals;
  txn bigint;
  attempt bigint;
  at timestamptz := clock_timestamp();
BEGIN
  -- Locked until this statement commits with the intent: a second use waits, then finds it sent.
  SELECT * INTO request FROM agentpay_approvals a
  WHERE a.gateway = p_gateway AND a.agent_id = p_agent_id AND a.transaction_id = p_transaction_id FOR UPDATE;
  IF NOT FOUND THEN RAISE EXCEPTION 'no request for %', p_transaction_id USING ERRCODE = 'APNON'; END IF;
  IF EXISTS (SELECT 1 FROM agentpay_transactions t
             WHERE t.gateway = p_gateway AND t.agent_id = p_agent_id AND t.transaction_id = p_transaction_id) THEN
    RAISE EXCEPTION 'transaction % was sent already', p_transaction_id USING ERRCODE = 'APUSE';
  END IF;
  IF request.decision IS NULL THEN
    RAISE EXCEPTION '% awaits approval', p_transaction_id USING ERRCODE = 'APWAI';
  END IF;
  IF request.decision = 'declined' THEN
    RAISE EXCEPTION '% was declined', p_transaction_id USING ERRCODE = 'APDEC';
  END IF;
  IF request.expires_at <= now() THEN
    RAISE EXCEPTION 'the approval of % expired', p_transaction_id USING ERRCODE = 'APEXP';
  END IF;
  -- The frozen purchase becomes the intent (as queries.ts insertIntent writes one), marked approved.
  INSERT INTO agentpay_transactions (gateway, agent_id, transaction_id, service, account, amount, currency,
    invoice_id, at, operator, host, voucher)
  VALUES (request.gateway, request.agent_id, request.transaction_id, request.service, request.account,
    request.amount, request.currency, request.invoice_id, at, session_user, p_host, request.voucher)
  RETURNING seq INTO txn;
  INSERT INTO agentpay_records (record_id, transaction_seq, kind, at, operator, host, overrides)
  VALUES (p_record_id, txn, 'attempt', at, session_user, p_host,
    ARRAY['requested-by:' || request.requested_by, 'approved-by:' || request.decided_by])
  RETURNING seq INTO attempt;
  INSERT INTO agentpay_open (transaction_seq) VALUES (txn);
  RETURN QUERY SELECT attempt, request.service, request.account, request.amount, request.currency,
    request.invoice_id, request.voucher, request.requested_by, request.decided_by;
END $$;
-- The mark of an approved payment on its attempt is the database's word: an attempt that claims
-- an approval no supervisor gave is refused, whoever inserts it. SECURITY DEFINER: a database
-- user with rights on the records alone (a desk set up before approvals) still reads the requests.
CREATE FUNCTION agentpay_approved_attempt() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM unnest(NEW.overrides) o WHERE o LIKE 'approved-by:%' OR o LIKE 'requested-by:%')
     AND NOT EXISTS (
       SELECT 1 FROM agentpay_approvals a JOIN agentpay_transactions t
         ON t.gateway = a.gateway AND t.agent_id = a.agent_id AND t.transaction_id = a.transaction_id
       WHERE t.seq = NEW.transaction_seq AND a.decision = 'approved'
         AND NEW.overrides @> ARRAY['approved-by:' || a.decided_by, 'requested-by:' || a.requested_by]) THEN
    RAISE EXCEPTION 'no supervisor approved transaction %', NEW.transaction_seq USING ERRCODE = 'APNON';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER agentpay_records_approved BEFORE INSERT ON agentpay_records
  FOR EACH ROW EXECUTE FUNCTION agentpay_approved_attempt();
REVOKE ALL ON FUNCTION agentpay_request_approval(text, text, text, text, text, text, text, text, text, text[], integer),
  agentpay_decide_approval(text, text, text), agentpay_use_approval(text, text, text, uuid, text) FROM PUBLIC;
`;
