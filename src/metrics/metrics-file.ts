import { accessSync, constants, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { replaceFile } from '../durable.js';
import { type JobMetrics, lastSuccessIn, renderMetrics } from './exposition.js';

// The --metrics-file on disk, written whole (durable.ts replaceFile) so a scraper never reads half; its `.tmp`
// name is passed over by node_exporter (it reads `*.prom`). 0644: the collector often runs as another user.

/** Throws the system's error when the file's directory is missing or not writable: checked before the job runs. */
export function checkMetricsDirectory(path: string): void {
  accessSync(dirname(resolve(path)), constants.W_OK);
}

/** The last success the file now on disk records for `job`; undefined when there is none, or no file to read. */
export function previousLastSuccess(path: string, job: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  return lastSuccessIn(text, job);
}

export function writeMetricsFile(path: string, metrics: JobMetrics): void {
  replaceFile(path, Buffer.from(renderMetrics(metrics), 'utf8'));
}
