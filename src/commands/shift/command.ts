import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import { addOptions } from '../../options/commander.js';
import type { OptionDefinitions } from '../../options/definition.js';
import type { LazyAction } from '../define.js';
import { dataFormatDefinitions } from '../output-format.js';

/** `agentpay shift open|x|close|verify`: an operator role's shift on the team ledger (docs/desk-safety.md, Shifts). */
const descriptions = {
  shift: {
    en: "your role's shift on the team ledger: open it, an X-report while open, close it with a numbered Z-report, check the reports' chain",
    ru: 'смена вашей роли в общем журнале: открыть, X-отчёт по открытой смене, закрыть с нумерованным Z-отчётом, проверить цепочку отчётов',
  },
  open: { en: 'open your shift (one at a time per role)', ru: 'открыть смену (у роли одна открытая смена)' },
  x: {
    en: 'the interim report of your open shift: counts and exact sums by currency and state, approvals, what is not final',
    ru: 'промежуточный отчёт открытой смены: число и точные суммы по валютам и состояниям, одобрения, что не окончательно',
  },
  close: {
    en: 'close your shift with the next Z-report (refused, exit 3, while a payment of it is not final, unless --carry-over)',
    ru: 'закрыть смену следующим Z-отчётом (отказ с кодом 3, пока платёж смены не окончателен, если нет --carry-over)',
  },
  verify: {
    en: "walk the Z-reports' SHA-256 chain: exit 0 when intact, 1 naming the first report that is not",
    ru: 'пройти цепочку SHA-256 Z-отчётов: код 0, если она цела, 1 с номером первого нарушенного отчёта',
  },
} as const satisfies Record<string, Said>;

const closeOptions = {
  settle: {
    flag: '--settle',
    help: {
      en: "first ask the gateway (Status) about the shift's payments not final, as reconcile does, and record the answers",
      ru: 'сначала спросить шлюз (Status) о неокончательных платежах смены, как это делает reconcile, и записать ответы',
    },
  },
  carryOver: {
    flag: '--carry-over',
    help: {
      en: 'close even with payments not final or requests awaiting approval: the report lists them as carried',
      ru: 'закрыть, даже если есть неокончательные платежи или запросы на одобрение: отчёт перечислит их как перенесённые',
    },
  },
  ...dataFormatDefinitions,
} as const satisfies OptionDefinitions;

export function shiftCommand(lazyAction: LazyAction, language: Language): Command {
  const shift = new Command('shift').description(descriptions.shift[language]);
  const run = async () => await import('./run.js');
  shift
    .command('open')
    .description(descriptions.open[language])
    .action(lazyAction(async () => (await run()).runShiftOpen));
  addOptions(shift.command('x'), language, dataFormatDefinitions)
    .description(descriptions.x[language])
    .action(lazyAction(async () => (await run()).runShiftX));
  addOptions(shift.command('close'), language, closeOptions)
    .description(descriptions.close[language])
    .action(lazyAction(async () => (await run()).runShiftClose));
  shift
    .command('verify')
    .description(descriptions.verify[language])
    .action(lazyAction(async () => (await run()).runShiftVerify));
  return shift;
}
