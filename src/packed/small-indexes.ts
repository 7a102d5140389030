/**
 * Per row, an index into a table of distinct values, or none, in the fewest bytes the table
 * needs: one a row while it holds under 255 values, two under 65,535, four beyond (made wider,
 * once, when a value needs it). A bulk run's rows name a handful of words, and their ids a few
 * high halves: an Int32 a row held three bytes a row that no run used.
 */
type Cells = Uint8Array | Uint16Array | Uint32Array;

export class SmallIndexes {
  private cells: Cells;

  constructor(readonly length: number) {
    this.cells = new Uint8Array(length);
  }

  get(row: number): number | undefined {
    const stored = this.cells[row]!;
    return stored === 0 ? undefined : stored - 1;
  }

  set(row: number, index: number | undefined): void {
    const stored = index === undefined ? 0 : index + 1;
    if (stored >= 2 ** (8 * this.cells.BYTES_PER_ELEMENT)) {
      const wider = stored <= 0xffff ? new Uint16Array(this.length) : new Uint32Array(this.length);
      wider.set(this.cells);
      this.cells = wider;
    }
    this.cells[row] = stored;
  }
}

/**
 * 64-bit ids by row in five bytes a row while they have few distinct high halves (the ids
 * agentpay makes for a run are consecutive): each id's low 32 bits, and its high 32 bits as an
 * index into a table of them. 0 is none (no id written as a Long is 0).
 */
export class PackedIds {
  private readonly lows: Uint32Array;
  private readonly highIndexes: SmallIndexes;
  private readonly highs: number[] = [];
  private readonly highIndexOf = new Map<number, number>();

  constructor(length: number) {
    this.lows = new Uint32Array(length);
    this.highIndexes = new SmallIndexes(length);
  }

  get(row: number): bigint {
    const highIndex = this.highIndexes.get(row);
    const low = BigInt(this.lows[row]!);
    return highIndex === undefined ? low : (BigInt(this.highs[highIndex]!) << 32n) | low;
  }

  set(row: number, id: bigint): void {
    const high = Number(id >> 32n);
    this.lows[row] = Number(id & 0xffffffffn);
    let highIndex = this.highIndexOf.get(high);
    if (highIndex === undefined) this.highIndexOf.set(high, (highIndex = this.highs.push(high) - 1));
    this.highIndexes.set(row, highIndex);
  }
}
