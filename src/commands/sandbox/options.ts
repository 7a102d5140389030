import { UsageError } from '../../errors.js';
import type { OptionDefinitions } from '../../options/definition.js';
import { optionalText } from '../../options/values.js';
import { t } from '../../run-scope.js';
import { garbageKinds } from '../../sandbox/garbage.js';
import { sandboxBreaks } from '../../sandbox/gateway-logic.js';

/** A value given as text that must pass `valid`, or the default; then a number. */
function numberOption(
  raw: unknown,
  flag: string,
  fallback: string,
  valid: (text: string) => boolean,
  message: string,
): number {
  const text = optionalText(raw, flag) ?? fallback;
  if (!valid(text)) throw new UsageError(message);
  return Number(text);
}

const countOption = (flag: string, unit: 'milliseconds' | 'payments' | 'polls') => (raw: unknown) =>
  numberOption(raw, flag, '0', (v) => /^\d{1,7}$/.test(v), t().commands.wholeNumber(flag, unit));

/** The sandbox's options; --break's rules are checked by run.ts against the sandbox's own list. */
export const sandboxOptions = {
  host: {
    flag: '--host <host>',
    help: { en: 'address to listen on (default 127.0.0.1)', ru: 'адрес, на котором слушать (по умолчанию 127.0.0.1)' },
    parse: (raw: unknown) => optionalText(raw, '--host') ?? '127.0.0.1',
  },
  port: {
    flag: '--port <port>',
    help: {
      en: 'port to listen on, 0 for a free one (default 8080)',
      ru: 'порт, на котором слушать, 0 — любой свободный (по умолчанию 8080)',
    },
    parse: (raw: unknown) =>
      numberOption(
        raw,
        '--port',
        '8080',
        (v) => /^\d{1,5}$/.test(v) && Number(v) <= 65535,
        t().commands.numberFromTo('--port', '0', '65535'),
      ),
  },
  state: {
    flag: '--state <path>',
    help: {
      en: 'keep transactions in this SQLite file (default: in memory)',
      ru: 'хранить транзакции в этом файле базы данных (по умолчанию: в памяти)',
    },
  },
  pending: {
    flag: '--pending <n>',
    help: {
      en: 'payments stay in progress for n Status polls (default 0)',
      ru: 'платежи остаются в обработке n опросов Status (по умолчанию 0)',
    },
    parse: countOption('--pending', 'polls'),
  },
  latency: {
    flag: '--latency <ms>',
    help: { en: 'fault: wait this long before each answer', ru: 'сбой: ждать столько перед каждым ответом' },
    parse: countOption('--latency', 'milliseconds'),
  },
  dropAfterCommit: {
    flag: '--drop-after-commit <n>',
    help: {
      en: 'fault: commit the next n payments, then cut the connection instead of answering',
      ru: 'сбой: провести следующие n платежей, а затем оборвать соединение вместо ответа',
    },
    parse: countOption('--drop-after-commit', 'payments'),
  },
  failRate: {
    flag: '--fail-rate <0..1>',
    help: {
      en: 'fault: answer this share of committed payments with HTTP 500',
      ru: 'сбой: отвечать HTTP 500 на такую долю проведённых платежей',
    },
    parse: (raw: unknown) =>
      numberOption(
        raw,
        '--fail-rate',
        '0',
        (v) => /^(0(\.\d+)?|1(\.0+)?)$/.test(v),
        t().commands.numberFromTo('--fail-rate', '0', '1', '0.2'),
      ),
  },
  garbage: {
    flag: '--garbage <kind>',
    help: {
      en: 'fault: answer every request (after processing it) with a broken answer',
      ru: 'сбой: отвечать на каждый запрос (после его обработки) испорченным ответом',
    },
    choices: garbageKinds,
  },
  break: {
    flag: '--break <rule>',
    help: {
      en: 'break a spec rule on purpose, to test a conformance suite: idempotency, amount-check or echo (repeatable)',
      ru: 'нарочно нарушить правило спецификации, чтобы проверить набор на соответствие: idempotency, amount-check или echo (можно повторять)',
    },
    choices: sandboxBreaks,
    repeatable: true,
  },
} as const satisfies OptionDefinitions;
