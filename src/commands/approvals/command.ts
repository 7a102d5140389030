import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import { addArgument, addOptions } from '../../options/commander.js';
import type { OptionDefinitions } from '../../options/definition.js';
import type { LazyAction } from '../define.js';

/** `approvals`, `approve`, `decline`: the two-person rule on the team ledger (docs/desk-safety.md, Approval). */
const descriptions = {
  approvals: {
    en: "list the purchases that await a supervisor's approval (team ledger)",
    ru: 'показать покупки, которые ждут одобрения старшего кассира (общий журнал)',
  },
  approve: {
    en: "approve another operator's request (a supervisor role, never your own); then `pay --approved <txn-id>` sends it",
    ru: 'одобрить запрос другого оператора (роль старшего кассира, никогда не свой); затем его отправит `pay --approved <id>`',
  },
  decline: {
    en: "decline another operator's request (a supervisor role, never your own): it is never sent",
    ru: 'отклонить запрос другого оператора (роль старшего кассира, никогда не свой): он никогда не будет отправлен',
  },
} as const satisfies Record<string, Said>;

const transactionArgument = {
  name: '<txn-id>',
  help: { en: 'the TransactionID of the request', ru: 'TransactionID запроса' },
};

const approveOptions = {
  yes: {
    flag: '--yes',
    help: {
      en: 'decide without asking at a terminal (the purchase is still shown)',
      ru: 'решить без вопроса в терминале (покупка всё равно показывается)',
    },
  },
} as const satisfies OptionDefinitions;

const declineOptions = {
  ...approveOptions,
  reason: {
    flag: '--reason <text>',
    help: { en: 'why, kept with the decision', ru: 'почему; сохраняется вместе с решением' },
  },
} as const satisfies OptionDefinitions;

export function approvalsCommand(lazyAction: LazyAction, language: Language): Command {
  return new Command('approvals')
    .description(descriptions.approvals[language])
    .action(lazyAction(async () => (await import('./run.js')).runApprovals));
}

export function approveCommand(lazyAction: LazyAction, language: Language): Command {
  return addOptions(addArgument(new Command('approve'), language, transactionArgument), language, approveOptions)
    .description(descriptions.approve[language])
    .action(lazyAction(async () => (await import('./run.js')).runApprove, 'txnId'));
}

export function declineCommand(lazyAction: LazyAction, language: Language): Command {
  return addOptions(addArgument(new Command('decline'), language, transactionArgument), language, declineOptions)
    .description(descriptions.decline[language])
    .action(lazyAction(async () => (await import('./run.js')).runDecline, 'txnId'));
}
