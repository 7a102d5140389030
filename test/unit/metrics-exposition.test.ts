import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bulkRowStates, lastSuccessIn, openPaymentStates, renderMetrics } from '../../src/metrics/exposition.js';

// The metrics file's text (src/metrics/exposition.ts): what each family holds, which are left
// out, label values quoted, and the last success read back from an earlier file.
const base = { job: 'reconcile', endedAt: 1_795_788_404_370, durationMs: 12.5, exitCode: 4, figures: {} };

describe('renderMetrics', () => {
  it('writes every family with HELP and TYPE; a last success not known is left out, as are figures not counted', () => {
    expect(renderMetrics({ ...base, lastSuccessAt: undefined })).toMatchInlineSnapshot(`
      "# HELP agentpay_last_run_timestamp_seconds When the job last ended, successfully or not (Unix time).
      # TYPE agentpay_last_run_timestamp_seconds gauge
      agentpay_last_run_timestamp_seconds{job="reconcile"} 1795788404.370
      # HELP agentpay_job_duration_seconds How long the job's last run took.
      # TYPE agentpay_job_duration_seconds gauge
      agentpay_job_duration_seconds{job="reconcile"} 0.013
      # HELP agentpay_last_exit_code The exit code of the job's last run.
      # TYPE agentpay_last_exit_code gauge
      agentpay_last_exit_code{job="reconcile"} 4
      "
    `);
  });

  it('writes each open state, each list and each row state, zeros included, and quotes a label value', () => {
    const text = renderMetrics({
      ...base,
      job: 'a"b\\c',
      lastSuccessAt: 1_795_000_000_000,
      figures: {
        openPayments: { pending: 2, unknown: 0 },
        registryRows: { only_in_registry: 1, only_in_ledger: 0, different: 3, dated_another_day: 2, agreeing: 7 },
      },
    });
    expect(text).toContain('agentpay_last_success_timestamp_seconds{job="a\\"b\\\\c"} 1795000000.000\n');
    expect(text).toContain('agentpay_open_payments{job="a\\"b\\\\c",state="unknown"} 0\n');
    expect(text).toContain('agentpay_registry_rows{job="a\\"b\\\\c",list="agreeing"} 7\n');
    expect(text).not.toContain('agentpay_bulk_rows');
  });
});

describe('lastSuccessIn', () => {
  const earlier = renderMetrics({ ...base, lastSuccessAt: 1_795_000_000_250 });

  it("reads the job's own line back in milliseconds", () => {
    expect(lastSuccessIn(earlier, 'reconcile')).toBe(1_795_000_000_250);
  });

  it("gives nothing for another job's file, a value that is not a time, or a file that is not ours", () => {
    expect(lastSuccessIn(earlier, 'reconcile_registry')).toBeUndefined();
    expect(
      lastSuccessIn('agentpay_last_success_timestamp_seconds{job="reconcile"} NaN\n', 'reconcile'),
    ).toBeUndefined();
    expect(lastSuccessIn('agentpay_last_success_timestamp_seconds{job="reconcile"} -1\n', 'reconcile')).toBeUndefined();
    expect(lastSuccessIn('\u0000\u00ff garbage', 'reconcile')).toBeUndefined();
  });
});

describe('examples/alerts.yml', () => {
  it('asks only for metrics and states a metrics file holds', () => {
    const file = parse(readFileSync('examples/alerts.yml', 'utf8')) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const rules = file.groups.flatMap((group) => group.rules);
    expect(rules.map((rule) => rule.alert)).toHaveLength(3);
    const zeros = <K extends string>(keys: readonly K[]) =>
      Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
    const everything = renderMetrics({
      ...base,
      lastSuccessAt: base.endedAt,
      figures: { openPayments: zeros(openPaymentStates), bulkRows: zeros(bulkRowStates) },
    });
    for (const { expr } of rules) {
      for (const [name] of expr.matchAll(/agentpay_[a-z_]+/g)) expect(everything, name).toContain(`\n${name}{`);
      for (const [, states] of expr.matchAll(/state=~?"([^"]+)"/g))
        for (const state of states!.split('|')) expect(everything, state).toContain(`state="${state}"`);
    }
  });
});
