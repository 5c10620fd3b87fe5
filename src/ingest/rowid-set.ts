/**
 * A set of small non-negative integers (document row ids) as a growable
 * bitmap: one bit per id up to the largest added, so remembering which of a
 * million documents a walk saw costs about 125 KB, not a set of path strings.
 */
export class RowidSet {
  private bits = new Uint32Array(1024);

  /** Add a row id (a non-negative safe integer). */
  add(rowid: number): void {
    if (!Number.isSafeInteger(rowid) || rowid < 0) throw new RangeError(`Not a row id: ${rowid}`);
    const word = Math.floor(rowid / 32);
    if (word >= this.bits.length) {
      const grown = new Uint32Array(Math.max(word + 1, this.bits.length * 2));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[word]! |= 1 << rowid % 32;
  }

  has(rowid: number): boolean {
    const word = Math.floor(rowid / 32);
    return word < this.bits.length && (this.bits[word]! & (1 << rowid % 32)) !== 0;
  }
}
