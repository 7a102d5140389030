import { ensureLength, growable, release } from '../../packed/growable.js';
import { type TransactionState, transactionStates } from '../../protocol/transaction-view.js';

/** What history's first pass keeps of each transaction (latest.ts), for its second. */

/**
 * How far after its intent an outcome may be and still be taken from the second pass's own
 * reading; one further away (settled by a later reconcile, a retry) is read at its offset.
 */
const nearLines = 4096;
export const noOutcome = 0;
const farOutcome = 0xffff;

export const stateNumber = (state: TransactionState) => 1 + transactionStates.indexOf(state);
export const noState = 0;
/** Where an outcome far from its intent is: read directly in the second pass. */
export interface FarOutcome {
  file: number;
  offset: number;
  length: number;
}

/**
 * Per transaction (its number in the index), ~9 bytes: the line of its entry, how far after
 * it its outcome is (noOutcome, 1..nearLines, or farOutcome with its place in `far`), its
 * state and its gateway.
 */
export class EntryPlaces {
  readonly intentLine = growable(Uint32Array);
  readonly outcomeDistance = growable(Uint16Array);
  /** 1 + the index of the state in transactionStates, or noState. */
  readonly state = growable(Uint8Array);
  readonly gateway = growable(Uint16Array);
  readonly far = new Map<number, FarOutcome>();

  ensure(count: number): void {
    for (const array of [this.intentLine, this.outcomeDistance, this.state, this.gateway]) ensureLength(array, count);
  }

  release(): void {
    release(this.intentLine, this.outcomeDistance, this.state, this.gateway);
    this.far.clear();
  }

  setOutcome(number: number, line: number, state: TransactionState, far: FarOutcome): void {
    const distance = line - this.intentLine[number]!;
    this.state[number] = stateNumber(state);
    this.outcomeDistance[number] = distance <= nearLines ? distance : farOutcome;
    if (distance <= nearLines) this.far.delete(number);
    else this.far.set(number, far);
  }

  clearOutcome(number: number): void {
    this.state[number] = noState;
    this.outcomeDistance[number] = noOutcome;
    this.far.delete(number);
  }
}
