import type { OptionDefinitions, OptionValues } from '../../options/definition.js';
import { defaultGraceSeconds } from '../../options/purchase.js';
import { lookupConcurrencyDefinition, optionalNonBlankText, wholeNumberOption } from '../../options/values.js';
import { builtInLayouts } from '../../registry/layout.js';
import { metricsOptions } from '../metrics-options.js';
import { delimiterDefinitions } from '../spreadsheet-options.js';

const registryOutputFormats = ['table', 'csv', 'json'] as const;

export const reconcileOptions = {
  since: {
    flag: '--since <date>',
    help: {
      en: 'only payments recorded since a date (2026-11-21), time (ISO 8601) or age (30m, 12h, 7d)',
      ru: 'только платежи, записанные в журнал с даты (2026-11-21), времени (ISO 8601) или за срок (30m, 12h, 7d)',
    },
  },
  /** Seconds before "not found" becomes final. */
  grace: {
    flag: '--grace <seconds>',
    help: {
      en: '"not found" becomes final ("never made") only after this age (default 120)',
      ru: '«не найдено» становится окончательным («не проводился») только после такого возраста (по умолчанию 120)',
    },
    parse: (raw: unknown) =>
      wholeNumberOption(raw, { fallback: String(defaultGraceSeconds), maxDigits: 6, flag: '--grace', unit: 'seconds' }),
  },
  concurrency: lookupConcurrencyDefinition,
  /** Compare the ledger with the provider's registry (registry.ts) instead. */
  registry: {
    flag: '--registry <file>',
    help: {
      en: "compare the ledger with this registry (реестр) of the provider's payments: exit 0 when they agree, 1 when not",
      ru: 'сверить журнал с этим реестром платежей провайдера: код выхода 0, если они сходятся, 1, если нет',
    },
    parse: (raw: unknown) => optionalNonBlankText(raw, '--registry'),
  },
  registryFormat: {
    flag: '--registry-format <name|file>',
    help: {
      en: 'the registry layout: tsv (default), csv (default for *.csv), or a JSON/YAML mapping file (docs/registries.md)',
      ru: 'раскладка реестра: tsv (по умолчанию), csv (по умолчанию для *.csv) или файл соответствия JSON/YAML (docs/registries.md)',
    },
    choices: Object.keys(builtInLayouts),
    open: true,
    parse: (raw: unknown) => optionalNonBlankText(raw, '--registry-format'),
  },
  date: {
    flag: '--date <day>',
    help: {
      en: "the day to compare (2026-11-21, 21.11.2026, today, yesterday; default: the registry's own dates); rows of another day are listed apart",
      ru: 'день для сверки (2026-11-21, 21.11.2026, today, yesterday; по умолчанию — даты самого реестра); строки за другой день выносятся отдельно',
    },
    parse: (raw: unknown) => optionalNonBlankText(raw, '--date'),
  },
  settle: {
    flag: '--settle',
    help: {
      en: 'ask Status first for open ledger payments of those days (the registry lists them as paid), and record the answers',
      ru: 'сначала запросить Status по открытым платежам журнала за эти дни (реестр числит их оплаченными) и записать ответы',
    },
  },
  format: {
    flag: '--format <format>',
    help: {
      en: 'the lists as table (default), csv or json (one object a line)',
      ru: 'списки как table (по умолчанию), csv или json (по объекту в строке)',
    },
    choices: registryOutputFormats,
  },
  bom: {
    flag: '--bom',
    help: {
      en: 'with --format csv: start with a byte order mark, for spreadsheet programs that need it to read Cyrillic',
      ru: 'с --format csv: начать с метки порядка байтов (BOM), для табличных программ, которым она нужна, чтобы прочесть кириллицу',
    },
  },
  ...delimiterDefinitions,
  ...metricsOptions,
} as const satisfies OptionDefinitions;

/** reconcile's options struct, as parseOptions reads it from the definitions above. */
export type ReconcileOptions = OptionValues<typeof reconcileOptions>;
