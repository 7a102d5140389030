import { UsageError } from '../../errors.js';
import type { OptionDefinitions } from '../../options/definition.js';
import { textListOption, wholeNumberOption } from '../../options/values.js';
import { t } from '../../run-scope.js';

/** --report: where each report goes, at most one of them to stdout (-). */
function reportsOption(raw: unknown): { format: 'junit' | 'html'; path: string }[] {
  const reports = textListOption(raw, '--report').map((value) => {
    const match = /^(junit|html):(.+)$/.exec(value);
    if (!match) throw new UsageError(t().scenario.reportFormat);
    return { format: match[1] as 'junit' | 'html', path: match[2]! };
  });
  if (reports.filter((report) => report.path === '-').length > 1) throw new UsageError(t().scenario.oneReportOnStdout);
  return reports;
}

export const scenarioOptions = {
  var: {
    flag: '--var <name=value>',
    help: {
      en: 'fill ${var.name} in the files (repeatable; or env AGENTPAY_VAR_<NAME>)',
      ru: 'подставить ${var.<имя>} в файлы (можно повторять; или переменная AGENTPAY_VAR_<ИМЯ>)',
    },
    repeatable: true,
  },
  report: {
    flag: '--report <junit:path|html:path>',
    help: {
      en: 'also write a JUnit XML or a self-contained HTML report to path; - prints it on stdout and moves the live lines to stderr (repeatable)',
      ru: 'записать ещё и отчёт JUnit XML или самодостаточный HTML в файл, названный после двоеточия; - печатает его в stdout, а текущие строки переносит в stderr (можно повторять)',
    },
    repeatable: true,
    parse: reportsOption,
  },
  data: {
    flag: '--data <rows>',
    help: {
      en: 'a CSV, JSON or YAML table: each case that uses ${row.<column>} runs once per row',
      ru: 'таблица CSV, JSON или YAML: каждый случай, где есть ${row.<столбец>}, выполняется по разу на строку',
    },
  },
  jobs: {
    flag: '--jobs <n>',
    help: {
      en: 'cases and iterations run n at a time (default 1); reports stay in file order',
      ru: 'случаи и итерации выполняются по n одновременно (по умолчанию 1); отчёты сохраняют порядок файлов',
    },
    parse: (raw: unknown) =>
      wholeNumberOption(raw, {
        fallback: '1',
        maxDigits: 3,
        min: 1,
        max: 64,
        flag: '--jobs',
      }),
  },
  retry: {
    flag: '--retry <n>',
    help: {
      en: 'try a step that could not do its job (unreachable, not understood) again up to n times; a payment with the same TransactionID',
      ru: 'повторить шаг, который не смог сделать своё (шлюз недоступен, ответ не понят), до n раз; платёж — с тем же TransactionID',
    },
    parse: (raw: unknown) =>
      wholeNumberOption(raw, {
        fallback: '0',
        maxDigits: 2,
        min: 0,
        max: 10,
        flag: '--retry',
      }),
  },
  yes: {
    flag: '--yes',
    help: {
      en: 'through a live profile: run its payments (always needed there)',
      ru: 'через боевой профиль: выполнить его платежи (там нужен всегда)',
    },
  },
  bail: {
    flag: '--bail',
    help: { en: 'stop at the first case that does not pass', ru: 'остановиться на первом непройденном случае' },
  },
} as const satisfies OptionDefinitions;
