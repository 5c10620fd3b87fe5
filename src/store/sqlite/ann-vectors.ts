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
 * name and renamed, like the data file; the header names both and records the
 * SHA-256 of everything after the head ({@link AnnVectorsWriter.digest}), which
 * `grk doctor` checks (a file overwritten with other bytes of the same size).
 *
 * A file that is not what it should be (its rowids out of order, a vector that is not
 * unit length, a read cut short by a truncation) raises {@link DamagedVectorsFile}:
 * the index then re-ranks from sqlite-vec instead (issue 25 #14: it returned nothing).
 */
import { createHash, type Hash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";

const MAGIC = "GRKVEC01";
const HEAD_BYTES = 16;
/** Vectors buffered per write, and read per block by {@link AnnVectors.forEach}. */
const WRITE_BATCH = 1024;

/** The vectors file is not the one its header describes (its bytes changed under it). */
export class DamagedVectorsFile extends Error {}

/** Streams rowid + unit vector pairs into a new vectors file; {@link finish} makes it visible at `path`. */
export class AnnVectorsWriter {
  private readonly fd: number;
  private readonly tmp: string;
  private rowids = new Float64Array(1024);
  private count = 0;
  private readonly buffer: Float32Array;
  private buffered = 0;
  private offset = HEAD_BYTES;
  private readonly hash: Hash = createHash("sha256");
  /** SHA-256 (hex) of the bytes after the head, set by {@link finish}. */
  digest: string | undefined;

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
      this.digest = this.hash.digest("hex");
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
    this.hash.update(bytes);
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
      for (let i = 0; i < count; i++) {
        if ((i > 0 && !(rowids[i]! > rowids[i - 1]!)) || slots[i]! >= count) throw new DamagedVectorsFile("its rowid index is out of order");
      }
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
        if (!isStoredVector(v)) throw new DamagedVectorsFile(`the vector of rowid ${rowid} is not unit length`);
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

/** Whether `v` can be a stored vector: every one is unit length (or all zeros); anything else was not written here. */
export function isStoredVector(v: Float32Array): boolean {
  let squares = 0;
  for (let i = 0; i < v.length; i++) squares += v[i]! * v[i]!;
  return Math.abs(squares - 1) <= 1e-3 || squares === 0;
}

/** SHA-256 (hex) of the bytes after the head of the vectors file at `path` (what the writer's digest covers). */
export function vectorsFileDigest(path: string): string {
  return fileDigest(path, HEAD_BYTES);
}

/** SHA-256 (hex) of a file from byte `from` on, read a block at a time. */
export function fileDigest(path: string, from = 0): string {
  const hash = createHash("sha256");
  const fd = openSync(path, "r");
  try {
    const block = Buffer.alloc(1 << 20);
    for (let pos = from; ; ) {
      const n = readSync(fd, block, 0, block.length, pos);
      if (n === 0) break;
      hash.update(block.subarray(0, n));
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
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
    if (n === 0) throw new DamagedVectorsFile("the vectors file ended early (truncated?)");
    done += n;
  }
}
