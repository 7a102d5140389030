import { UsageError } from '../errors.js';
import type { OptionDefinitions } from '../options/definition.js';
import { optionalNonBlankText } from '../options/values.js';
import { t } from '../run-scope.js';

/** A job label: what Prometheus and a person both read without quoting (docs/metrics.md). */
const jobLabel = /^[a-z][a-z0-9_]{0,63}$/;

/** `--metrics-file` and `--metrics-job`, defined once for the commands a cron runs: reconcile
 * (with --registry too), report and pay --from-file (measured-run.ts reads them). */
export const metricsOptions = {
  metricsFile: {
    flag: '--metrics-file <path>',
    help: {
      en: "write the run's metrics for Prometheus (node_exporter's textfile collector) to this file, whole, also when it fails (docs/metrics.md)",
      ru: 'записать метрики запуска для Prometheus (сборщик текстовых файлов `node_exporter`) в этот файл целиком, и при неудаче тоже (docs/metrics.md)',
    },
    parse: (raw: unknown) => optionalNonBlankText(raw, '--metrics-file'),
  },
  metricsJob: {
    flag: '--metrics-job <name>',
    help: {
      en: "with --metrics-file: the job label (default: the command's, such as reconcile); one for each cron job",
      ru: 'с --metrics-file: метка «job» (по умолчанию — по команде, например reconcile); своя для каждого задания cron',
    },
    parse: (raw: unknown) => {
      const name = optionalNonBlankText(raw, '--metrics-job');
      if (name !== undefined && !jobLabel.test(name)) throw new UsageError(t().metrics.badJob(name));
      return name;
    },
  },
} as const satisfies OptionDefinitions;
