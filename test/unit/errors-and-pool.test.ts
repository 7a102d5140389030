import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { forEachOrdered } from '../../src/commands/ordered-pool.js';
import * as tally from '../../src/commands/report/tally.js';
import * as shift from '../../src/commands/shift/run.js';
import * as errors from '../../src/errors.js';
import {
  CancelledError,
  type ExitCodeValue,
  GatewayProtocolError,
  GatewayRefusedError,
  GatewayUnreachableError,
  LocalStorageError,
  mostSevere,
  PaymentOutcomeUnknownError,
  TransactionPendingError,
  UsageError,
} from '../../src/errors.js';
import * as approval from '../../src/purchase/approval.js';
import * as registry from '../../src/registry/read.js';

describe('exit codes of the error classes', () => {
  it('each class carries the contract code', () => {
    expect(new GatewayRefusedError('x', '25').exitCode).toBe(1);
    expect(new UsageError('x').exitCode).toBe(2);
    expect(new TransactionPendingError('x').exitCode).toBe(3);
    expect(new PaymentOutcomeUnknownError('42', 'lost').exitCode).toBe(3);
    expect(new GatewayUnreachableError({ kind: 'unavailable', status: 503 }).exitCode).toBe(4);
    expect(new GatewayProtocolError({ kind: 'notUnderstood', detail: 'x' }).exitCode).toBe(5);
    expect(
      new LocalStorageError('write the ledger', '/l', Object.assign(new Error('x'), { code: 'EROFS' })).exitCode,
    ).toBe(6);
    expect(new CancelledError().exitCode).toBe(130);
  });

  it('a local storage failure names the path and the errno code, with a hint fit for it', () => {
    const full = new LocalStorageError(
      'write the ledger',
      '/var/ledger.sqlite',
      Object.assign(new Error('no space left'), { code: 'ENOSPC' }),
      { consequence: 'no payment was sent' },
    );
    expect(full.message).toBe('cannot write the ledger /var/ledger.sqlite (ENOSPC); no payment was sent');
    expect(full.code).toBe('ENOSPC');
    expect(full.hint).toContain('disk');
    expect(
      new LocalStorageError('read the journal', '/j', Object.assign(new Error('x'), { code: 'EACCES' })).hint,
    ).toContain('permissions');
    expect(new LocalStorageError('read the journal', '/j', new Error('odd')).message).toBe(
      'cannot read the journal /j (odd)',
    );
  });

  it('an unknown payment outcome points at status, never says failed', () => {
    const error = new PaymentOutcomeUnknownError('42', 'the connection was closed');
    expect(error.message).toBe('the outcome of payment 42 is unknown: the connection was closed');
    expect(error.hint).toContain('agentpay status 42');
    expect(error.message).not.toMatch(/fail/i);
    expect(error.name).toBe('PaymentOutcomeUnknownError');
  });
});

describe('error names', () => {
  // The type a scenario report and --json show. The bundle keeps no function names
  // (scripts/bundle.mjs), so each class says its own: a class the bundle renamed, or one that
  // forgot to say it, would show another type here.
  const classes = [errors, tally, registry, approval, shift].flatMap((module) =>
    Object.values(module).filter(
      (value): value is new (...args: string[]) => Error =>
        typeof value === 'function' && value.prototype instanceof Error,
    ),
  );

  // Most take words; a replay's miss takes what had no recording.
  const argumentsOf = new Map<unknown, unknown[]>([
    [errors.ReplayMissError, [{ operation: 'Payment', fields: [['Service', '201']], paymentUnanswered: false }]],
  ]);
  it.each(classes.map((errorClass) => [errorClass.name, errorClass]))('%s names itself', (name, errorClass) => {
    const made = argumentsOf.get(errorClass) ?? ['a', 'b', 'c'];
    expect(new (errorClass as new (...args: unknown[]) => Error)(...made).name).toBe(name);
  });

  it('covers every error class of those modules', () => {
    expect(classes.length).toBeGreaterThanOrEqual(15);
  });
});

describe('mostSevere (a batch exit code)', () => {
  it.each<[ExitCodeValue[], ExitCodeValue]>([
    [[], 0],
    [[0, 0], 0],
    [[0, 1], 1],
    [[1, 2, 0], 2],
    [[2, 3, 1], 3],
    // A row a desk rule refused (7) outranks a bad one (2); a payment left open (3) outranks both.
    [[2, 7, 1, 0], 7],
    [[7, 3], 3],
    [[3, 4, 0], 4],
    [[4, 3], 4],
    [[3, 5], 5],
    [[5, 4], 5],
    [[4, 5], 5],
    [[1, 0, 3, 0], 3],
    [[5, 6, 3], 6],
    [[6, 70], 70],
    [[130, 1], 1],
    [[130, 0], 130],
  ])('%j -> %i', (codes, expected) => {
    expect(mostSevere(codes)).toBe(expected);
    expect(mostSevere([...codes].reverse())).toBe(expected);
    expect(mostSevere(new Set(codes))).toBe(expected);
  });
});

describe('forEachOrdered', () => {
  /** Deterministic pseudo-random delays, so a failure can be replayed. */
  function delays(seed: number) {
    let state = seed;
    return () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % 15;
    };
  }

  it.each([1, 3, 8])('emits in input order with random delays, never more than %i in flight', async (concurrency) => {
    const nextDelay = delays(concurrency * 7919);
    const items = Array.from({ length: 60 }, (_, i) => i);
    let inFlight = 0;
    let maxInFlight = 0;
    const emitted: number[] = [];
    await forEachOrdered(
      items,
      concurrency,
      async (item) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await sleep(nextDelay());
        inFlight--;
        return item * 10;
      },
      (result) => emitted.push(result),
    );
    expect(emitted).toEqual(items.map((i) => i * 10));
    expect(maxInFlight).toBeLessThanOrEqual(concurrency);
    // With 60 items and delays, a pool bigger than one really runs in parallel.
    if (concurrency > 1) expect(maxInFlight).toBeGreaterThan(1);
    expect(inFlight).toBe(0);
  });

  it('streams: a result is emitted before the last input is read', async () => {
    const events: string[] = [];
    async function* source() {
      for (let i = 0; i < 5; i++) {
        events.push(`read ${i}`);
        yield i;
        await sleep(20);
      }
    }
    await forEachOrdered(
      source(),
      2,
      async (item) => item,
      (result) => events.push(`emit ${result}`),
    );
    expect(events.indexOf('emit 0')).toBeLessThan(events.indexOf('read 4'));
    expect(events.filter((e) => e.startsWith('emit'))).toEqual(['emit 0', 'emit 1', 'emit 2', 'emit 3', 'emit 4']);
  });

  it('a slow first item holds back later results but not the work on them', async () => {
    const emitted: number[] = [];
    const started: number[] = [];
    let releaseFirst!: () => void;
    const firstDone = new Promise<void>((resolve) => (releaseFirst = resolve));
    let laterDone!: () => void;
    const laterAllDone = new Promise<void>((resolve) => (laterDone = resolve));
    const finished: number[] = [];
    const run = forEachOrdered(
      [0, 1, 2, 3],
      4,
      async (item) => {
        started.push(item);
        if (item === 0) await firstDone;
        else if (finished.push(item) === 3) laterDone();
        return item;
      },
      (result) => emitted.push(result),
    );
    await laterAllDone;
    // One turn of the event loop: whatever the pool does with the three results has happened.
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2, 3]);
    expect(emitted).toEqual([]);
    releaseFirst();
    await run;
    expect(emitted).toEqual([0, 1, 2, 3]);
  });

  it.each([
    [1, [0]],
    [2, [0, 1]],
    [3, [4]],
  ])(
    'with concurrency %i, failing work items %j reject the whole run instead of hanging',
    async (concurrency, failing) => {
      const run = forEachOrdered(
        [0, 1, 2, 3, 4, 5, 6, 7],
        concurrency,
        async (item) => {
          await sleep(failing.includes(item) ? 1 : 10);
          if (failing.includes(item)) throw new Error(`boom ${item}`);
          return item;
        },
        () => undefined,
      );
      const outcome = await Promise.race([
        run.then(
          () => 'resolved',
          (error: Error) => error.message,
        ),
        sleep(3000, 'hung'),
      ]);
      expect(outcome).toBe(`boom ${failing[0]}`);
    },
  );
});
