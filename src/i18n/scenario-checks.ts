// What a scenario check wanted and found, as data: scenario/assertions.ts makes these, each catalogue words
// them (`scenario.expected`, `actual`, `absence`), so they live below both.

/** A JSON value's type, as a type check names it. */
export type ValueType = 'string' | 'number' | 'boolean' | 'null' | 'list' | 'object';

/** Why a path leads to nothing (worded by the catalogue's `scenario.absence`). */
export interface Absence {
  why: 'missing' | 'null' | 'listHas' | 'notList' | 'eachNotList' | 'emptyList' | 'notJsonString' | 'notJson';
  /** listHas: how long the list is. */
  length?: number;
  /** notJsonString: what is there instead of a string. */
  type?: ValueType;
}

/** What a check wanted, for the catalogue to word (`scenario.expected`); values shown as the file or record has them. */
export type Wanted =
  | { check: 'equals' | 'not-equals' | 'decimal-equals'; value: string }
  | { check: 'one-of'; values: string[] }
  | { check: 'type'; type: string }
  | { check: 'matches'; pattern: string; error?: string }
  | { check: 'contains'; value: string; inList: boolean }
  | { check: 'exists'; present: boolean }
  | { check: 'same-as'; other: Found; path: string; step: string }
  | { check: 'placeholder'; problem: string }
  /** A repeat-pay with no payment to repeat (run-step.ts), before anything runs. */
  | { check: 'repeat'; of: string };

/** What was there: a value as text (with its type, for a type check), or why there was none. */
export type Found = { value: string; type?: ValueType } | { absence: Absence };
