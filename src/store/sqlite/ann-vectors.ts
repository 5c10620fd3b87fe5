/**
 * The re-rank vectors file beside an ANN data file: every committed vector at the
 * header's state, as a unit float32 vector, found by chunk rowid.
 *
 * Why it exists: the graph ranks by 8-bit vectors, so its candidates are re-ranked
 * by the float vectors. Read from sqlite-vec, each is a point read inside a 1.5 MiB
 * chunk blob (an overflow-page chain walk): about 35 ms for 50 candidates at 1M
 * vectors once the file outgrows the page cache's mmap (docs/decisions/0009). Here
 * it is one positioned read each.
 *
 * Layout (little-endian): "GRKVEC01" | dimensions u32 | count u32 | vectors
 * f32[count × dimensions] in write order | rowids f64[count] ascending | slots
 * u32[count] (each rowid's position in the vectors). Written under a temporary
 * name and renamed, like the data file; the header names both.
 */
import { closeSync, fstatSync, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";

const MAGIC = "GRKVEC01";
const HEAD_BYTES = 16;
/** Vectors buffered per write, and read per block by {@link AnnVectors.forEach}. */
const WRITE_BATCH = 1024;

/** Streams rowid + unit vector pairs into a new vectors file; {@link finish} makes it visible at `path`. */
export class AnnVectorsWriter {
  private readonly fd: number;
  private readonly tmp: string;
  private rowids = new Float64Array(1024);
  private count = 0;
  private readonly buffer: Float32Array;
  private buffered = 0;
  private offset = HEAD_BYTES;

  constructor(
    private readonly path: string,
    private readonly dimensions: number,
    unique: string,
  ) {
    this.tmp = `${path}.${unique}.tmp`;
    this.fd = openSync(this.tmp, "w", 0o600);
    this.buffer = new Float32Array(WRITE_BATCH * dimensions);
  }

  /** Vectors added so far. */
  get written(): number {
    return this.count;
  }

  add(rowid: number, unit: Float32Array): void {
    if (this.count === this.rowids.length) {
      const grown = new Float64Array(this.rowids.length * 2);
      grown.set(this.rowids);
      this.rowids = grown;
    }
    this.rowids[this.count++] = rowid;
    this.buffer.set(unit.subarray(0, this.dimensions), this.buffered * this.dimensions);
    if (++this.buffered === WRITE_BATCH) this.flush();
  }

  /** Write the rowid index and the head, then rename into place. */
  finish(): void {
    try {
      this.flush();
      const n = this.count;
      const order = new Uint32Array(n);
      for (let i = 0; i < n; i++) order[i] = i;
      const rowids = this.rowids;
      order.sort((a, b) => rowids[a]! - rowids[b]!);
      const sorted = new Float64Array(n);
      for (let i = 0; i < n; i++) sorted[i] = rowids[order[i]!]!;
      this.write(new Uint8Array(sorted.buffer));
      this.write(new Uint8Array(order.buffer));
      const head = Buffer.alloc(HEAD_BYTES);
      head.write(MAGIC, 0, "latin1");
      head.writeUInt32LE(this.dimensions, 8);
      head.writeUInt32LE(n, 12);
      writeSync(this.fd, head, 0, HEAD_BYTES, 0);
    } finally {
      closeSync(this.fd);
    }
    renameSync(this.tmp, this.path);
  }

  /** Give up: the temporary file is removed. */
  abort(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Already closed by finish().
    }
    try {
      unlinkSync(this.tmp);
    } catch {
      // Already renamed or gone.
    }
  }

  private flush(): void {
    if (this.buffered === 0) return;
    this.write(new Uint8Array(this.buffer.buffer, 0, this.buffered * this.dimensions * 4));
    this.buffered = 0;
  }

  private write(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.length) {
      const n = writeSync(this.fd, bytes, done, bytes.length - done, this.offset);
      done += n;
      this.offset += n;
    }
  }
}

/** An open vectors file: the rowid index in memory (12 bytes a vector), the vectors read on demand. */
export class AnnVectors {
  private constructor(
    private fd: number,
    readonly dimensions: number,
    private readonly rowids: Float64Array,
    private readonly slots: Uint32Array,
  ) {}

  /**
   * The file at `path`, or undefined when it is missing, or not the `count` vectors
   * of `dimensions` its size must then be (a truncated or foreign file is never trusted).
   */
  static open(path: string, dimensions: number, count: number): AnnVectors | undefined {
    let fd: number;
    try {
      fd = openSync(path, "r");
    } catch {
      return undefined;
    }
    try {
      if (!isComplete(fd, dimensions, count)) throw new Error("not this index's vectors");
      const vectorBytes = count * dimensions * 4;
      const rowids = new Float64Array(count);
      const slots = new Uint32Array(count);
      readFully(fd, new Uint8Array(rowids.buffer), HEAD_BYTES + vectorBytes);
      readFully(fd, new Uint8Array(slots.buffer), HEAD_BYTES + vectorBytes + count * 8);
      return new AnnVectors(fd, dimensions, rowids, slots);
    } catch {
      closeSync(fd);
      return undefined;
    }
  }

  /** Whether `path` is a complete vectors file of `count` vectors of `dimensions` (its head and size; the body is not read). */
  static exists(path: string, dimensions: number, count: number): boolean {
    let fd: number;
    try {
      fd = openSync(path, "r");
    } catch {
      return false;
    }
    try {
      return isComplete(fd, dimensions, count);
    } finally {
      closeSync(fd);
    }
  }

  /** The unit vector stored for `rowid`, or undefined when the file holds none (the chunk was gone at its state). */
  get(rowid: number): Float32Array | undefined {
    const rowids = this.rowids;
    let lo = 0;
    let hi = rowids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const r = rowids[mid]!;
      if (r < rowid) lo = mid + 1;
      else if (r > rowid) hi = mid - 1;
      else {
        const v = new Float32Array(this.dimensions);
        readFully(this.fd, new Uint8Array(v.buffer), HEAD_BYTES + this.slots[mid]! * this.dimensions * 4);
        return v;
      }
    }
    return undefined;
  }

  /** Every vector in the file, in file order (sequential reads, a block at a time). */
  forEach(fn: (rowid: number, unit: Float32Array) => void): void {
    const n = this.rowids.length;
    const d = this.dimensions;
    const rowidAt = new Float64Array(n);
    for (let i = 0; i < n; i++) rowidAt[this.slots[i]!] = this.rowids[i]!;
    const block = new Float32Array(WRITE_BATCH * d);
    for (let start = 0; start < n; start += WRITE_BATCH) {
      const m = Math.min(WRITE_BATCH, n - start);
      readFully(this.fd, new Uint8Array(block.buffer, 0, m * d * 4), HEAD_BYTES + start * d * 4);
      for (let j = 0; j < m; j++) fn(rowidAt[start + j]!, block.subarray(j * d, (j + 1) * d));
    }
  }

  close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
  }
}

function isComplete(fd: number, dimensions: number, count: number): boolean {
  const head = Buffer.alloc(HEAD_BYTES);
  if (readSync(fd, head, 0, HEAD_BYTES, 0) !== HEAD_BYTES || head.toString("latin1", 0, 8) !== MAGIC) return false;
  if (head.readUInt32LE(8) !== dimensions || head.readUInt32LE(12) !== count) return false;
  return fstatSync(fd).size === HEAD_BYTES + count * (dimensions * 4 + 12);
}

function readFully(fd: number, into: Uint8Array, position: number): void {
  let done = 0;
  while (done < into.length) {
    const n = readSync(fd, into, done, into.length - done, position + done);
    if (n === 0) throw new Error("the vectors file ended early");
    done += n;
  }
}
