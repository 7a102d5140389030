import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import type { OptionDefinition } from '../../options/definition.js';
import { garbageKinds } from '../../sandbox/garbage.js';
import type { LazyAction } from '../define.js';
import { addOptions } from '../option.js';

const description: Said = { en: 'run the sandbox gateway in the foreground', ru: 'запустить шлюз-песочницу на переднем плане' };

const options: readonly OptionDefinition[] = [
  { flags: '--host <host>', help: { en: 'address to listen on (default 127.0.0.1)', ru: 'адрес, на котором слушать (по умолчанию 127.0.0.1)' } },
  {
    flags: '--port <port>',
    help: { en: 'port to listen on, 0 for a free one (default 8080)', ru: 'порт, на котором слушать, 0 — любой свободный (по умолчанию 8080)' },
  },
  { flags: '--state <path>', help: { en: 'keep transactions in this file (default: in memory)', ru: 'хранить транзакции в этом файле (по умолчанию: в памяти)' } },
  {
    flags: '--pending <n>',
    help: { en: 'payments stay in progress for n Status polls (default 0)', ru: 'платежи остаются в обработке n опросов Status (по умолчанию 0)' },
  },
  { flags: '--latency <ms>', help: { en: 'fault: wait this long before each answer', ru: 'сбой: ждать столько перед каждым ответом' } },
  {
    flags: '--drop-after-commit <n>',
    help: {
      en: 'fault: commit the next n payments, then cut the connection instead of answering',
      ru: 'сбой: провести следующие n платежей, а затем оборвать соединение вместо ответа',
    },
  },
  {
    flags: '--fail-rate <0..1>',
    help: { en: 'fault: answer this share of committed payments with HTTP 500', ru: 'сбой: отвечать HTTP 500 на такую долю проведённых платежей' },
  },
  {
    flags: '--garbage <kind>',
    help: {
      en: 'fault: answer every request (after processing it) with a broken answer',
      ru: 'сбой: отвечать на каждый запрос (после его обработки) испорченным ответом',
    },
    choices: garbageKinds,
  },
  {
    flags: '--break <rule>',
    help: {
      en: 'break a spec rule on purpose, to test a conformance suite: idempotency, amount-check or echo (repeatable)',
      ru: 'нарочно нарушить правило спецификации, чтобы проверить набор на соответствие: idempotency, amount-check или echo (можно повторять)',
    },
    repeatable: true,
  },
];

export function sandboxCommand(lazyAction: LazyAction, language: Language): Command {
  const sandbox = new Command('sandbox').description(description[language]);
  return addOptions(sandbox, language, options).action(lazyAction(async () => (await import('./run.js')).runSandbox));
}
