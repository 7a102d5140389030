import { describe, expect, it } from 'vitest';
import { DeskRuleRefusedError } from '../../src/desk-rule-error.js';
import { errorLines } from '../../src/errors/error-line.js';
import { failureOf } from '../../src/errors/failure.js';
import {
  CancelledError,
  EmptyVoucherListError,
  ExitCode,
  GatewayProtocolError,
  GatewayRefusedError,
  GatewayUnreachableError,
  InterruptedError,
  LedgerUnreachableError,
  LocalStorageError,
  PaymentOutcomeUnknownError,
  ReplayMissError,
  TransactionPendingError,
  UsageError,
  VoucherChoiceError,
} from '../../src/errors.js';
import { en } from '../../src/i18n/en.js';
import { InvalidFieldError } from '../../src/protocol/problems.js';

const unreachable = {
  kind: 'unreachable',
  endpoint: 'http://127.0.0.1:9',
  problem: { kind: 'refused' },
  noPaymentSent: true,
  route: undefined,
} as const;

/** One of every kind of error the boundary can be handed, with the exit code and type it must report. */
const kinds: [unknown, number, string][] = [
  [new UsageError('bad', { hint: 'fix it' }), 2, 'UsageError'],
  [new ReplayMissError({ operation: 'Status', fields: [], paymentUnanswered: false }), 2, 'ReplayMissError'],
  [new VoucherChoiceError('no such voucher', 'amount'), 2, 'VoucherChoiceError'],
  [new EmptyVoucherListError('no vouchers', 'invoice'), 2, 'EmptyVoucherListError'],
  [new GatewayUnreachableError(unreachable), 4, 'GatewayUnreachableError'],
  [new GatewayProtocolError({ kind: 'notUnderstood', detail: 'not JSON' }), 5, 'GatewayProtocolError'],
  [new LedgerUnreachableError('postgres://db/ledger', 'ECONNREFUSED'), 4, 'LedgerUnreachableError'],
  [new PaymentOutcomeUnknownError('42', 'the answer was lost'), 3, 'PaymentOutcomeUnknownError'],
  [new CancelledError(), 130, 'CancelledError'],
  [new InterruptedError('SIGTERM'), 143, 'InterruptedError'],
  [new GatewayRefusedError('refused', '20'), 1, 'GatewayRefusedError'],
  [new TransactionPendingError('pending'), 3, 'TransactionPendingError'],
  [
    new LocalStorageError('write the journal', '/x', Object.assign(new Error('x'), { code: 'EROFS' })),
    6,
    'LocalStorageError',
  ],
  [new DeskRuleRefusedError('limit', 'over the daily limit'), 7, 'DeskRuleRefusedError'],
  [new InvalidFieldError('Amount', 'Amount must be a decimal'), 2, 'InvalidFieldError'],
  [new TypeError('undefined is not a function'), 70, 'InternalError'],
  ['a thrown string', 70, 'InternalError'],
];

describe('the error line', () => {
  it.each(kinds)('has one shape under --json for every kind of error: %s', (error, exitCode, type) => {
    const line = errorLines(failureOf(error, en, undefined), { json: true });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trimEnd()).not.toContain('\n');
    const parsed = JSON.parse(line) as { error: Record<string, unknown> };
    expect(Object.keys(parsed)).toEqual(['error']);
    const keys = Object.keys(parsed.error);
    expect(keys.filter((key) => !['rule', 'hint'].includes(key))).toEqual(['exitCode', 'type', 'message']);
    expect(keys).toEqual(['exitCode', 'type', 'rule', 'message', 'hint'].filter((key) => keys.includes(key)));
    expect(parsed.error).toMatchObject({ exitCode, type, message: expect.any(String) });
    if (parsed.error.hint !== undefined) expect(parsed.error.hint).toEqual(expect.any(String));
    expect(parsed.error.rule).toBe(error instanceof DeskRuleRefusedError ? error.rule : undefined);
  });

  it('is a message and its hint for a person, a bug named as one', () => {
    const usage = failureOf(new UsageError('bad', { hint: 'fix it' }), en, undefined);
    expect(errorLines(usage, { json: false })).toBe('agentpay: bad\n  fix it\n');
    const bug = failureOf(new TypeError('boom'), en, undefined);
    expect(errorLines(bug, { json: false, prefix: en.boundary.internalError })).toBe(
      `agentpay: internal error: boom\n  ${en.boundary.internalErrorHint}\n`,
    );
  });

  it('after a signal, an unreachable gateway is the signal that cut the exchange short', () => {
    const failure = failureOf(new GatewayUnreachableError(unreachable), en, 'SIGINT');
    expect(failure).toMatchObject({ exitCode: ExitCode.interrupted, type: 'InterruptedError' });
    expect(failure.message).toBe(en.errors.stopped('SIGINT'));
  });
});
