/** Migration 6: the desk's rules kept by the database itself, so neither a modified client nor
 * plain SQL as an operator gets past them (docs/desk-safety.md, "What the database enforces"). */
export const deskRulesMigration = `
CREATE TABLE agentpay_approval_thresholds (
  currency text PRIMARY KEY,
  over numeric NOT NULL CHECK (over >= 0),
  set_by text NOT NULL DEFAULT session_user,
  set_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE agentpay_desk_policy (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  shifts_required boolean NOT NULL DEFAULT false,
  set_by text NOT NULL DEFAULT session_user,
  set_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE agentpay_approvals ADD COLUMN used_record uuid UNIQUE, ADD COLUMN used_at timestamptz;
UPDATE agentpay_approvals a SET used_at = t.at FROM agentpay_transactions t
  WHERE t.gateway = a.gateway AND t.agent_id = a.agent_id AND t.transaction_id = a.transaction_id;
ALTER TABLE agentpay_transactions ADD COLUMN shift_seq bigint REFERENCES agentpay_shifts (seq);
ALTER TABLE agentpay_transactions DISABLE TRIGGER agentpay_transactions_append_only;
UPDATE agentpay_transactions t SET shift_seq = s.seq FROM agentpay_shifts s
  WHERE s.operator = t.operator AND t.at >= s.opened_at AND (s.closed_at IS NULL OR t.at < s.closed_at)
    AND t.gateway NOT IN ('sandbox', 'replay');
ALTER TABLE agentpay_transactions ENABLE TRIGGER agentpay_transactions_append_only;
ALTER TABLE agentpay_transactions ADD CONSTRAINT agentpay_transactions_id_digits
  CHECK (transaction_id ~ '^(0|[1-9][0-9]{0,18})$') NOT VALID;
ALTER TABLE agentpay_approvals ADD CONSTRAINT agentpay_approvals_id_digits
  CHECK (transaction_id ~ '^(0|[1-9][0-9]{0,18})$') NOT VALID;
-- Where public is open to everyone (PostgreSQL 14's default), no one may shadow what these functions call.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
CREATE INDEX agentpay_transactions_by_shift ON agentpay_transactions (shift_seq) WHERE shift_seq IS NOT NULL;

-- The session's open shift, held FOR SHARE until the caller commits (a close waits for it); none
-- is refused where the ledger requires shifts of operator roles.
CREATE FUNCTION agentpay_session_shift() RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE shift bigint;
BEGIN
  SELECT s.seq INTO shift FROM public.agentpay_shifts s WHERE s.operator = session_user AND s.closed_at IS NULL FOR SHARE;
  IF shift IS NULL AND (SELECT p.shifts_required FROM public.agentpay_desk_policy p) IS TRUE
     AND public.agentpay_is_operator(session_user) THEN
    RAISE EXCEPTION '% has no open shift, and the ledger requires one', session_user USING ERRCODE = 'APSHF',
      DETAIL = session_user;
  END IF;
  RETURN shift;
END $$;
REVOKE ALL ON FUNCTION agentpay_session_shift() FROM PUBLIC;

CREATE FUNCTION agentpay_guard_intent() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  request public.agentpay_approvals;
  threshold numeric;
BEGIN
  -- A TransactionID recorded already: the insert cannot add it (the safe retry's ON CONFLICT).
  IF EXISTS (SELECT 1 FROM public.agentpay_transactions t
             WHERE t.gateway = NEW.gateway AND t.agent_id = NEW.agent_id AND t.transaction_id = NEW.transaction_id) THEN
    RETURN NEW;
  END IF;
  SELECT * INTO request FROM public.agentpay_approvals a
  WHERE a.gateway = NEW.gateway AND a.agent_id = NEW.agent_id AND a.transaction_id = NEW.transaction_id;
  IF FOUND THEN
    IF request.used_at IS NULL OR request.decision IS DISTINCT FROM 'approved' OR request.expires_at <= clock_timestamp()
       OR (request.service, request.account, request.amount, request.currency)
          IS DISTINCT FROM (NEW.service, NEW.account, NEW.amount, NEW.currency)
       OR request.invoice_id IS DISTINCT FROM NEW.invoice_id OR request.voucher IS DISTINCT FROM NEW.voucher THEN
      RAISE EXCEPTION 'transaction % is held by a request for approval: only its approved purchase is sent, by pay --approved',
        NEW.transaction_id USING ERRCODE = 'APREQ';
    END IF;
  ELSE
    -- A currency spelled otherwise (kzt, "KZT ") must not slip past the threshold keyed KZT.
    IF NEW.currency !~ '^[A-Z]{3}$' AND EXISTS (SELECT 1 FROM public.agentpay_approval_thresholds) THEN
      RAISE EXCEPTION 'currency % is not a code the thresholds can weigh', NEW.currency USING ERRCODE = 'APCUR';
    END IF;
    SELECT t.over INTO threshold FROM public.agentpay_approval_thresholds t WHERE t.currency = NEW.currency;
    IF threshold IS NOT NULL AND (NEW.amount !~ '^[0-9]+(\\.[0-9]+)?$' OR NEW.amount::numeric > threshold) THEN
      RAISE EXCEPTION '% % is over the approval threshold of % %', NEW.amount, NEW.currency, threshold, NEW.currency
        USING ERRCODE = 'APTHR', DETAIL = threshold::text;
    END IF;
  END IF;
  NEW.shift_seq := public.agentpay_session_shift();
  RETURN NEW;
END $$;
CREATE TRIGGER agentpay_transactions_guarded BEFORE INSERT ON agentpay_transactions
  FOR EACH ROW EXECUTE FUNCTION agentpay_guard_intent();

-- Approval marks on an attempt: only the one record agentpay_use_approval named when it took the approval.
CREATE OR REPLACE FUNCTION agentpay_approved_attempt() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM unnest(NEW.overrides) o WHERE o LIKE 'approved-by:%' OR o LIKE 'requested-by:%')
     AND NOT EXISTS (
       SELECT 1 FROM public.agentpay_approvals a
       WHERE a.used_record = NEW.record_id AND a.decision = 'approved'
         AND ARRAY['approved-by:' || a.decided_by, 'requested-by:' || a.requested_by] @> ARRAY(
           SELECT o FROM unnest(NEW.overrides) o WHERE o LIKE 'approved-by:%' OR o LIKE 'requested-by:%')) THEN
    RAISE EXCEPTION 'no supervisor approved transaction %', NEW.transaction_seq USING ERRCODE = 'APNON';
  END IF;
  RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION agentpay_use_approval(p_gateway text, p_agent_id text, p_transaction_id text, p_record_id uuid, p_host text)
RETURNS TABLE (attempt_seq bigint, service text, account text, amount text, currency text, invoice_id text,
  voucher text, requested_by text, decided_by text) LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  request public.agentpay_approvals;
  txn bigint;
  attempt bigint;
  at timestamptz := clock_timestamp();
BEGIN
  -- Locked until this statement commits with the intent: a second use waits, then finds it used.
  SELECT * INTO request FROM public.agentpay_approvals a
  WHERE a.gateway = p_gateway AND a.agent_id = p_agent_id AND a.transaction_id = p_transaction_id FOR UPDATE;
  IF NOT FOUND THEN RAISE EXCEPTION 'no request for %', p_transaction_id USING ERRCODE = 'APNON'; END IF;
  IF request.used_at IS NOT NULL OR EXISTS (SELECT 1 FROM public.agentpay_transactions t
             WHERE t.gateway = p_gateway AND t.agent_id = p_agent_id AND t.transaction_id = p_transaction_id) THEN
    RAISE EXCEPTION 'transaction % was sent already', p_transaction_id USING ERRCODE = 'APUSE';
  END IF;
  IF request.decision IS NULL THEN
    RAISE EXCEPTION '% awaits approval', p_transaction_id USING ERRCODE = 'APWAI';
  END IF;
  IF request.decision = 'declined' THEN
    RAISE EXCEPTION '% was declined', p_transaction_id USING ERRCODE = 'APDEC';
  END IF;
  IF request.expires_at <= at THEN
    RAISE EXCEPTION 'the approval of % expired', p_transaction_id USING ERRCODE = 'APEXP';
  END IF;
  UPDATE public.agentpay_approvals a SET used_record = p_record_id, used_at = at WHERE a.seq = request.seq;
  INSERT INTO public.agentpay_transactions (gateway, agent_id, transaction_id, service, account, amount, currency,
    invoice_id, at, operator, host, voucher)
  VALUES (request.gateway, request.agent_id, request.transaction_id, request.service, request.account,
    request.amount, request.currency, request.invoice_id, at, session_user, p_host, request.voucher)
  RETURNING seq INTO txn;
  INSERT INTO public.agentpay_records (record_id, transaction_seq, kind, at, operator, host, overrides)
  VALUES (p_record_id, txn, 'attempt', at, session_user, p_host,
    ARRAY['requested-by:' || request.requested_by, 'approved-by:' || request.decided_by])
  RETURNING seq INTO attempt;
  INSERT INTO public.agentpay_open (transaction_seq) VALUES (txn);
  RETURN QUERY SELECT attempt, request.service, request.account, request.amount, request.currency,
    request.invoice_id, request.voucher, request.requested_by, request.decided_by;
END $$;

CREATE OR REPLACE FUNCTION agentpay_request_approval(
  p_gateway text, p_agent_id text, p_transaction_id text, p_service text, p_account text, p_amount text,
  p_currency text, p_invoice_id text, p_voucher text, p_needs text[], p_ttl_seconds integer
) RETURNS timestamptz LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE expires timestamptz := clock_timestamp() + make_interval(secs => least(greatest(p_ttl_seconds, 60), 86400));
BEGIN
  IF p_amount !~ '^[0-9]+(\\.[0-9]+)?$' OR p_currency !~ '^[A-Z]{3}$' THEN
    RAISE EXCEPTION 'a request is a decimal amount in a currency code' USING ERRCODE = 'APCUR';
  END IF;
  IF EXISTS (SELECT 1 FROM public.agentpay_transactions t
             WHERE t.gateway = p_gateway AND t.agent_id = p_agent_id AND t.transaction_id = p_transaction_id) THEN
    RAISE EXCEPTION 'transaction % is in the ledger already', p_transaction_id USING ERRCODE = 'APTXN';
  END IF;
  INSERT INTO public.agentpay_approvals (gateway, agent_id, transaction_id, service, account, amount, currency,
    invoice_id, voucher, needs, requested_by, requested_at, expires_at)
  VALUES (p_gateway, p_agent_id, p_transaction_id, p_service, p_account, p_amount, p_currency,
    p_invoice_id, p_voucher, p_needs, session_user, clock_timestamp(), expires)
  ON CONFLICT ON CONSTRAINT agentpay_approvals_owner DO NOTHING;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'transaction % has a request already', p_transaction_id USING ERRCODE = 'APTXN';
  END IF;
  RETURN expires;
END $$;
CREATE OR REPLACE FUNCTION agentpay_open_shift() RETURNS SETOF agentpay_shifts LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RETURN QUERY INSERT INTO public.agentpay_shifts (operator, opened_at) VALUES (session_user, now()) RETURNING *;
EXCEPTION WHEN unique_violation THEN
  RAISE EXCEPTION '% has a shift open already', session_user USING ERRCODE = 'APSHO';
END $$;

-- A decision names the request whole: one TransactionID may stand on two gateways or agents.
DROP FUNCTION agentpay_decide_approval(text, text, text);
CREATE FUNCTION agentpay_decide_approval(p_gateway text, p_agent_id text, p_transaction_id text, p_decision text, p_reason text)
RETURNS SETOF agentpay_approvals LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE request public.agentpay_approvals;
BEGIN
  IF p_decision NOT IN ('approved', 'declined') THEN
    RAISE EXCEPTION 'a decision is approved or declined' USING ERRCODE = 'APNON';
  END IF;
  IF NOT public.agentpay_is_supervisor(session_user) THEN
    RAISE EXCEPTION '% is not a supervisor role', session_user USING ERRCODE = 'APSUP';
  END IF;
  SELECT * INTO request FROM public.agentpay_approvals a
  WHERE a.gateway = p_gateway AND a.agent_id = p_agent_id AND a.transaction_id = p_transaction_id FOR UPDATE;
  IF NOT FOUND THEN RAISE EXCEPTION 'no request for %', p_transaction_id USING ERRCODE = 'APNON'; END IF;
  IF request.requested_by = session_user THEN
    RAISE EXCEPTION '% requested it: a second person decides', session_user USING ERRCODE = 'APOWN';
  END IF;
  IF request.decision IS NOT NULL THEN
    RAISE EXCEPTION '% was % already', p_transaction_id, request.decision USING ERRCODE = 'APDON';
  END IF;
  IF request.expires_at <= clock_timestamp() THEN
    RAISE EXCEPTION 'the request for % expired', p_transaction_id USING ERRCODE = 'APEXP';
  END IF;
  RETURN QUERY UPDATE public.agentpay_approvals a
    SET decision = p_decision, decided_by = session_user, decided_at = clock_timestamp(), reason = p_reason
    WHERE a.seq = request.seq RETURNING a.*;
END $$;

-- The close: by the database's clock, after every intent of the shift in flight has committed
-- (their FOR SHARE), and only when the report counts every member of the shift.
DROP FUNCTION agentpay_close_shift(bigint, timestamptz, text, text);
CREATE FUNCTION agentpay_close_shift(p_shift bigint, p_content text, p_hash text)
RETURNS SETOF agentpay_z_reports LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  shift public.agentpay_shifts;
  last public.agentpay_z_reports;
  next_number bigint;
  previous text;
  members bigint;
  counted bigint;
BEGIN
  -- An older snapshot would count the members without the intent this close waited for.
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'a shift closes under read committed only' USING ERRCODE = 'APZCH';
  END IF;
  SELECT * INTO shift FROM public.agentpay_shifts s WHERE s.seq = p_shift FOR UPDATE;
  IF NOT FOUND OR shift.operator <> session_user OR shift.closed_at IS NOT NULL THEN
    RAISE EXCEPTION '% has no such open shift', session_user USING ERRCODE = 'APSHN';
  END IF;
  -- One report at a time for the whole ledger: numbers and the chain never fork.
  LOCK TABLE public.agentpay_z_reports IN EXCLUSIVE MODE;
  SELECT * INTO last FROM public.agentpay_z_reports z ORDER BY z.number DESC LIMIT 1;
  next_number := COALESCE(last.number, 0) + 1;
  previous := COALESCE(last.hash, repeat('0', 64));
  SELECT count(*) INTO members FROM public.agentpay_transactions t WHERE t.shift_seq = p_shift;
  SELECT COALESCE(sum((total ->> 'count')::bigint), 0) INTO counted
    FROM jsonb_array_elements(p_content::jsonb -> 'totals') total;
  IF encode(sha256(convert_to(p_content, 'UTF8')), 'hex') <> p_hash
     OR (p_content::jsonb ->> 'number')::bigint IS DISTINCT FROM next_number
     OR p_content::jsonb ->> 'previousHash' IS DISTINCT FROM previous
     OR members <> counted THEN
    RAISE EXCEPTION 'the report does not follow report % or misses a payment of the shift', COALESCE(last.number, 0)
      USING ERRCODE = 'APZCH';
  END IF;
  UPDATE public.agentpay_shifts s SET closed_at = clock_timestamp() WHERE s.seq = p_shift;
  RETURN QUERY INSERT INTO public.agentpay_z_reports (number, shift_seq, content, hash, previous_hash, made_at)
    VALUES (next_number, p_shift, p_content, p_hash, previous, now()) RETURNING *;
END $$;
REVOKE ALL ON FUNCTION agentpay_close_shift(bigint, text, text),
  agentpay_decide_approval(text, text, text, text, text) FROM PUBLIC;

-- A retry's or a resumed row's attempt needs the shift as a new intent does.
CREATE FUNCTION agentpay_guard_attempt() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.kind = 'attempt' THEN PERFORM public.agentpay_session_shift(); END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER agentpay_records_guarded BEFORE INSERT ON agentpay_records
  FOR EACH ROW EXECUTE FUNCTION agentpay_guard_attempt();

-- Only a final outcome closes a payment: the open set is kept by this trigger, as the owner.
CREATE FUNCTION agentpay_close_on_outcome() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.kind = 'outcome' AND (NEW.state = 'success' OR (NEW.state = 'failed' AND (NEW.answers_attempt IS NULL
     OR NOT EXISTS (SELECT 1 FROM public.agentpay_records a
       WHERE a.transaction_seq = NEW.transaction_seq AND a.kind = 'attempt' AND a.seq > NEW.answers_attempt)))) THEN
    -- A transaction a reconciler holds is left for it (SKIP LOCKED): a terminal never waits on it.
    DELETE FROM public.agentpay_open WHERE transaction_seq IN (SELECT o.transaction_seq FROM public.agentpay_open o
      WHERE o.transaction_seq = NEW.transaction_seq FOR UPDATE SKIP LOCKED);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER agentpay_records_close_open AFTER INSERT ON agentpay_records
  FOR EACH ROW EXECUTE FUNCTION agentpay_close_on_outcome();
CREATE TRIGGER agentpay_open_no_update BEFORE UPDATE ON agentpay_open
  FOR EACH ROW EXECUTE FUNCTION agentpay_append_only();
`;
