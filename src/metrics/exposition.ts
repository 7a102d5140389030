// A job's metrics in Prometheus's text exposition format 0.0.4, pure (docs/metrics.md): the agentpay_ prefix,
// base units (seconds), no _total on a gauge, snake_case label names.

/** The states an open payment can be left in; a new one needs a line in docs/metrics.md too. */
export const openPaymentStates = ['pending', 'unknown'] as const;
type OpenPaymentState = (typeof openPaymentStates)[number];

/** The lists of `reconcile --registry`, and the rows on which both sides agree. */
const registryLists = ['only_in_registry', 'only_in_ledger', 'different', 'dated_another_day', 'agreeing'] as const;
type RegistryList = (typeof registryLists)[number];

// A bulk run's rows as its summary counts them: a row's state, skipped (final in an earlier run), not started
// (the run stopped first), refused (a bad row: the whole file refused, nothing sent).
export const bulkRowStates = [
  'success',
  'failed',
  'pending',
  'unknown',
  'not_sent',
  'skipped',
  'not_started',
  'refused',
] as const;
export type BulkRowState = (typeof bulkRowStates)[number];

/** What a command counted while it ran, each left out when the run did not get to count it. */
export interface JobFigures {
  openPayments?: Record<OpenPaymentState, number>;
  registryRows?: Record<RegistryList, number>;
  bulkRows?: Record<BulkRowState, number>;
  /** A run that is not a run of the job (a bulk dry run): no file is written. */
  notAJob?: true;
}

export interface JobMetrics {
  job: string;
  /** When the run ended, in milliseconds since the epoch. */
  endedAt: number;
  /** When the job last succeeded (this run, or an earlier one), if known, in milliseconds. */
  lastSuccessAt: number | undefined;
  durationMs: number;
  exitCode: number;
  figures: JobFigures;
}

const lastSuccessName = 'agentpay_last_success_timestamp_seconds';

/** A label's value as the format quotes it: backslash, double quote and line feed escaped. */
const labelValue = (text: string) => text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

const seconds = (ms: number) => (ms / 1000).toFixed(3);

interface Family {
  name: string;
  help: string;
  samples: { labels: Record<string, string>; value: string }[];
}

function familyText({ name, help, samples }: Family): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`];
  for (const { labels, value } of samples) {
    const pairs = Object.entries(labels).map(([label, text]) => `${label}="${labelValue(text)}"`);
    lines.push(`${name}{${pairs.join(',')}} ${value}`);
  }
  return `${lines.join('\n')}\n`;
}

/** One sample per key of `counts`, labelled by `label`, in the order of `keys`. */
function countSamples<K extends string>(job: string, label: string, keys: readonly K[], counts: Record<K, number>) {
  return keys.map((key) => ({ labels: { job, [label]: key }, value: String(counts[key]) }));
}

/** The metrics file's text: every family with its HELP and TYPE, a family only when it has samples. */
export function renderMetrics(metrics: JobMetrics): string {
  const { job, figures } = metrics;
  const families: Family[] = [
    {
      name: 'agentpay_last_run_timestamp_seconds',
      help: 'When the job last ended, successfully or not (Unix time).',
      samples: [{ labels: { job }, value: seconds(metrics.endedAt) }],
    },
    {
      name: lastSuccessName,
      help: 'When the job last ran to its end, exit code 0, 1 or 3 (Unix time).',
      samples: metrics.lastSuccessAt === undefined ? [] : [{ labels: { job }, value: seconds(metrics.lastSuccessAt) }],
    },
    {
      name: 'agentpay_job_duration_seconds',
      help: "How long the job's last run took.",
      samples: [{ labels: { job }, value: seconds(metrics.durationMs) }],
    },
    {
      name: 'agentpay_last_exit_code',
      help: "The exit code of the job's last run.",
      samples: [{ labels: { job }, value: String(metrics.exitCode) }],
    },
    {
      name: 'agentpay_open_payments',
      help: 'Payments the last run left open, by state.',
      samples: figures.openPayments ? countSamples(job, 'state', openPaymentStates, figures.openPayments) : [],
    },
    {
      name: 'agentpay_registry_rows',
      help: 'Payments of the last registry comparison, by list (agreeing: on both sides, the same).',
      samples: figures.registryRows ? countSamples(job, 'list', registryLists, figures.registryRows) : [],
    },
    {
      name: 'agentpay_bulk_rows',
      help: "Rows of the last bulk run's file, by what became of them.",
      samples: figures.bulkRows ? countSamples(job, 'state', bulkRowStates, figures.bulkRows) : [],
    },
  ];
  return families
    .filter((family) => family.samples.length > 0)
    .map(familyText)
    .join('');
}

// The last success an earlier file recorded for `job`, kept when this run did not succeed. Anything else (another
// job's line, a line not ours, none) gives undefined: the sample is left out rather than made up.
export function lastSuccessIn(text: string, job: string): number | undefined {
  const wanted = `${lastSuccessName}{job="${labelValue(job)}"} `;
  const line = text.split('\n').find((candidate) => candidate.startsWith(wanted));
  const value = line?.slice(wanted.length).trim();
  if (value === undefined || !/^\d{1,12}(?:\.\d{1,9})?$/.test(value)) return undefined;
  return Math.round(Number(value) * 1000);
}
