import type { StepExecutor, StepRun } from './step-outcome.js';
import type { StepDefinition } from './step-schema.js';

interface Replay {
  /** The step's id, or its kind: what messages call it. */
  name: string;
  transactionId: unknown;
  replay: unknown;
  credentials: StepRun['credentials'];
}

export interface CaseScope {
  vars: Record<string, string>;
  /** --data: the iteration's row, for `${row.x}`. */
  row: Record<string, string> | undefined;
  records: Map<string, Record<string, unknown>>;
  replays: Map<string, Replay>;
  /** The case's last payment: what status, wait and repeat-pay use when not told otherwise. */
  lastPayment: Replay | undefined;
}

export function scopeOf(scope: CaseScope, extra: [string, unknown][] = []): Map<string, unknown> {
  return new Map<string, unknown>([
    ['var', scope.vars],
    ...(scope.row === undefined ? [] : [['row', scope.row] as [string, unknown]]),
    ...scope.records,
    ...extra,
  ]);
}

/** The step's record under its kind and id, and the payment it made for a later repeat-pay. */
export function remember(
  step: StepDefinition,
  run: StepRun,
  result: Awaited<ReturnType<StepExecutor>>,
  scope: CaseScope,
): void {
  const { record } = result;
  const replay: Replay | undefined =
    result.replay === undefined
      ? undefined
      : {
          name: step.id ?? step.kind,
          transactionId: record.transactionId,
          replay: result.replay,
          credentials: run.credentials,
        };
  for (const key of [step.kind, ...(step.id === undefined ? [] : [step.id])]) {
    scope.records.set(key, record);
    // A dry run, or a payment that could not be made, leaves nothing to repeat under its name.
    if (replay === undefined) scope.replays.delete(key);
    else scope.replays.set(key, replay);
  }
  if (replay !== undefined) scope.lastPayment = replay;
}
