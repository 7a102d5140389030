/**
 * A table of distinct values (tuples of strings), each kept once however many rows name it: a
 * row keeps the value's index (a cell of a typed array), not the value.
 */
export class Interned<T extends readonly unknown[]> {
  private readonly values: T[] = [];
  private readonly indexes = new Map<string, number>();

  indexOf(value: T): number {
    const key = JSON.stringify(value);
    let index = this.indexes.get(key);
    if (index === undefined) {
      index = this.values.push(value) - 1;
      this.indexes.set(key, index);
    }
    return index;
  }

  /** How many distinct values the table holds. */
  get size(): number {
    return this.values.length;
  }

  /** The value's index, when the table holds it (nothing is added). */
  find(value: T): number | undefined {
    return this.indexes.get(JSON.stringify(value));
  }

  at(index: number): T {
    return this.values[index]!;
  }
}
