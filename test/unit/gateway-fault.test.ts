import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import {
  exchangeProblemText,
  gatewayFaultHint,
  gatewayFaultMessage,
  lostAnswerReason,
} from '../../src/i18n/gateway-fault-words.js';
import { ru } from '../../src/i18n/ru.js';
import type { ExchangeProblem, GatewayFault } from '../../src/protocol/gateway-fault.js';

const endpoint = 'http://127.0.0.1:9/home/index';
const broken = (problem: ExchangeProblem, more: Partial<Extract<GatewayFault, { problem: ExchangeProblem }>> = {}) =>
  ({ kind: 'unreachable', endpoint, problem, noPaymentSent: false, route: undefined, ...more }) as const;

describe('a gateway fault in words', () => {
  it('says each way an exchange breaks, in both languages', () => {
    const problems: [ExchangeProblem, string, string][] = [
      [{ kind: 'refused' }, 'connection refused', 'в соединении отказано'],
      [{ kind: 'hostNotFound' }, 'host name not found', 'имя хоста не найдено'],
      [
        { kind: 'certificate', otherHost: true, code: 'ERR_TLS_CERT_ALTNAME_INVALID' },
        'the TLS certificate is for another host name (ERR_TLS_CERT_ALTNAME_INVALID); nothing was sent',
        'сертификат TLS выдан для другого имени хоста (ERR_TLS_CERT_ALTNAME_INVALID); ничего не отправлялось',
      ],
      [
        { kind: 'proxyTunnel', status: '403' },
        'the proxy refused to open a tunnel to the gateway (HTTP 403)',
        'прокси отказался открыть туннель к шлюзу (HTTP 403)',
      ],
      [
        { kind: 'couldNotConnectWithin', ms: 300 },
        'could not connect within 300 ms',
        'не удалось подключиться за 300 мс',
      ],
      [{ kind: 'noAnswerWithin', ms: 300 }, 'no complete answer within 300 ms', 'полного ответа нет за 300 мс'],
      [
        { kind: 'notHttp', code: 'HPE_INVALID_CONSTANT' },
        'the answer is not valid HTTP (HPE_INVALID_CONSTANT)',
        'ответ — не корректный HTTP (HPE_INVALID_CONSTANT)',
      ],
      [{ kind: 'other', message: 'socket hang up' }, 'socket hang up', 'socket hang up'],
    ];
    for (const [problem, english, russian] of problems) {
      expect(exchangeProblemText(problem, en)).toBe(english);
      expect(exchangeProblemText(problem, ru)).toBe(russian);
    }
  });

  it('an unreachable gateway: where, why, whether a payment left, and what to do next', () => {
    const refused = broken({ kind: 'refused' }, { noPaymentSent: true, route: 'http://proxy:3128 (--proxy)' });
    expect(gatewayFaultMessage(refused, en)).toBe(
      `cannot reach the gateway at ${endpoint}: connection refused; no payment was sent`,
    );
    expect(gatewayFaultMessage(refused, ru)).toBe(
      `не удалось связаться со шлюзом ${endpoint}: в соединении отказано; платёж не отправлялся`,
    );
    expect(gatewayFaultHint(refused, en)).toBe(
      'check --base-url, the proxy (http://proxy:3128 (--proxy)) and the network, then try again',
    );
    const late = { ...broken({ kind: 'noAnswerWithin', ms: 300 }), kind: 'timedOut' } as const;
    expect(gatewayFaultMessage(late, en)).toBe(
      `the gateway at ${endpoint} timed out: no complete answer within 300 ms`,
    );
    expect(gatewayFaultHint(late, ru)).toBe('попробуйте позже или дайте больше времени через --timeout <мс>');
    expect(
      gatewayFaultHint(broken({ kind: 'certificate', otherHost: false, code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), en),
    ).toContain('--ca-file');
    expect(gatewayFaultMessage({ kind: 'unavailable', status: 503 }, ru)).toBe('шлюз недоступен (HTTP 503)');
    expect(gatewayFaultMessage({ kind: 'notUnderstood', detail: 'the answer is not JSON (x)' }, en)).toBe(
      "the gateway's answer was not understood: the answer is not JSON (x)",
    );
  });

  it('an HTTP status other than 2xx instead of an envelope: its plain text through the sanitizer, else why', () => {
    const refused = {
      kind: 'notUnderstood',
      detail: 'not JSON',
      http: { status: 404, text: 'No \u001b[31mrecording\u202e' },
    };
    expect(gatewayFaultMessage(refused as GatewayFault & { kind: 'notUnderstood' }, en)).toBe(
      'the gateway answered HTTP 404 instead of a protocol answer: "No \\x1b[31mrecording\\u202e"',
    );
    expect(
      lostAnswerReason({ kind: 'notUnderstood', detail: 'not JSON', http: { status: 403, text: undefined } }, ru),
    ).toBe('шлюз вернул HTTP 403 вместо ответа протокола: not JSON');
  });

  it("a Payment's lost answer: the reason alone, for the outcome-unknown sentence", () => {
    expect(lostAnswerReason(broken({ kind: 'closed' }), en)).toBe(
      'the connection was closed before the answer arrived',
    );
    expect(lostAnswerReason({ kind: 'unavailable', status: 502 }, en)).toBe('the gateway answered HTTP 502');
    expect(lostAnswerReason({ kind: 'notUnderstood', detail: 'x' }, ru)).toBe('ответ не удалось разобрать: x');
    expect(lostAnswerReason({ kind: 'tooLarge', detail: 'the answer is larger than 1024 bytes' }, en)).toBe(
      'the answer is larger than 1024 bytes',
    );
  });
});

describe('the gateway layer', () => {
  it('returns data and makes no sentences: nothing of src/gateway imports the catalogues', () => {
    const folder = new URL('../../src/gateway/', import.meta.url);
    const speaking = readdirSync(folder).filter((name) =>
      /from '\.\.\/i18n\//.test(readFileSync(new URL(name, folder), 'utf8')),
    );
    expect(speaking).toEqual([]);
  });
});
