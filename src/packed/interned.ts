/**
 * A table of distinct values (tuples of strings), each kept once however many rows name it: a
 * row keeps the value's index (a cell of a typed array), not the value.
 */
export class Interned<T extends readonly unknown[]> {
  private readonly values: T[] = [];
  private readonly indexes = new Map<string, number>();

  indexOf(value: T): number {
    return this.indexWithin(value, Number.POSITIVE_INFINITY)!;
  }

  /** How many distinct values the table holds. */
  get size(): number {
    return this.values.length;
  }

  /**
   * The value's index, added while the table holds fewer than `most` values; undefined when the
   * table is full and does not hold it (a run that meets a value a row keeps none past a bound).
   */
  indexWithin(value: T, most: number): number | undefined {
    const key = JSON.stringify(value);
    let index = this.indexes.get(key);
    if (index === undefined && this.values.length < most) {
      index = this.values.push(value) - 1;
      this.indexes.set(key, index);
    }
    return index;
  }

  at(index: number): T {
    return this.values[index]!;
  }
}
