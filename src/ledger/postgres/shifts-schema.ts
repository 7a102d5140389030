/** Migration 5: shifts and Z-reports (docs/desk-safety.md, "Shifts"): one open shift a role, opened
 * and closed through the functions below; closing numbers the Z-report under a lock and checks its
 * chain (z-report.ts). Operators only read the tables. */
export const shiftsMigration = `
CREATE TABLE agentpay_shifts (
  seq bigserial PRIMARY KEY,
  operator text NOT NULL,
  opened_at timestamptz NOT NULL,
  closed_at timestamptz
);
CREATE UNIQUE INDEX agentpay_shifts_one_open ON agentpay_shifts (operator) WHERE closed_at IS NULL;
CREATE TABLE agentpay_z_reports (
  number bigint PRIMARY KEY,
  shift_seq bigint NOT NULL UNIQUE REFERENCES agentpay_shifts (seq),
  content text NOT NULL,
  hash text NOT NULL,
  previous_hash text NOT NULL,
  made_at timestamptz NOT NULL
);
CREATE FUNCTION agentpay_open_shift() RETURNS SETOF agentpay_shifts LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  RETURN QUERY INSERT INTO agentpay_shifts (operator, opened_at) VALUES (session_user, now()) RETURNING *;
EXCEPTION WHEN unique_violation THEN
  RAISE EXCEPTION '% has a shift open already', session_user USING ERRCODE = 'APSHO';
END $$;
CREATE FUNCTION agentpay_close_shift(p_shift bigint, p_closed_at timestamptz, p_content text, p_hash text)
RETURNS SETOF agentpay_z_reports LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  shift agentpay_shifts;
  last agentpay_z_reports;
  next_number bigint;
  previous text;
BEGIN
  SELECT * INTO shift FROM agentpay_shifts s WHERE s.seq = p_shift FOR UPDATE;
  IF NOT FOUND OR shift.operator <> session_user OR shift.closed_at IS NOT NULL THEN
    RAISE EXCEPTION '% has no such open shift', session_user USING ERRCODE = 'APSHN';
  END IF;
  -- One report at a time for the whole ledger: numbers and the chain never fork.
  LOCK TABLE agentpay_z_reports IN EXCLUSIVE MODE;
  SELECT * INTO last FROM agentpay_z_reports z ORDER BY z.number DESC LIMIT 1;
  next_number := COALESCE(last.number, 0) + 1;
  previous := COALESCE(last.hash, repeat('0', 64));
  IF encode(sha256(convert_to(p_content, 'UTF8')), 'hex') <> p_hash
     OR (p_content::jsonb ->> 'number')::bigint IS DISTINCT FROM next_number
     OR p_content::jsonb ->> 'previousHash' IS DISTINCT FROM previous THEN
    RAISE EXCEPTION 'the report does not follow report %', COALESCE(last.number, 0) USING ERRCODE = 'APZCH';
  END IF;
  UPDATE agentpay_shifts s SET closed_at = p_closed_at WHERE s.seq = p_shift;
  RETURN QUERY INSERT INTO agentpay_z_reports (number, shift_seq, content, hash, previous_hash, made_at)
    VALUES (next_number, p_shift, p_content, p_hash, previous, now()) RETURNING *;
END $$;
REVOKE ALL ON FUNCTION agentpay_open_shift(), agentpay_close_shift(bigint, timestamptz, text, text) FROM PUBLIC;
`;
