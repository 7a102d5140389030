import { readFileSync } from 'node:fs';
import parse from 'parse-prometheus-text-format';
import { expect } from 'vitest';

/**
 * A --metrics-file as Prometheus reads it: parsed by a real parser of the text format
 * (parse-prometheus-text-format), every family a gauge with its help, each sample's value by its
 * metric's name and its labels other than job (`agentpay_bulk_rows{state=failed}`). Every sample
 * must carry `job`.
 */
export function readMetrics(path: string, job: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const family of parse(readFileSync(path, 'utf8'))) {
    expect(family.type, family.name).toBe('GAUGE');
    expect(family.help, family.name).not.toBe('');
    for (const sample of family.metrics) {
      const { job: label, ...others } = sample.labels ?? {};
      expect(label, family.name).toBe(job);
      const named = Object.entries(others).map(([name, value]) => `${name}=${value}`);
      const key = named.length === 0 ? family.name : `${family.name}{${named.join(',')}}`;
      values.set(key, Number(sample.value));
    }
  }
  return values;
}
