/**
 * Byte formats of the BM25 postings store (see postings.ts for the tables).
 *
 * Postings of one term in one segment (inline in a term leaf or a `bm25_lists` row), `df` postings
 * sorted by segment-local document number, in blocks of {@link BLOCK_SIZE}:
 *
 *   one block (df <= BLOCK_SIZE):  payload
 *   several blocks:                varint nblocks,
 *                                  per block: varint (last - previous block's last), varint maxTf,
 *                                             varint minDl, varint payload bytes;
 *                                  then the payloads back to back
 *   payload: per posting varint (doc - previous doc - 1), varint tf   (previous doc starts at the
 *            previous block's last doc, or -1)
 *
 * The per-block (maxTf, minDl) pair bounds the block's BM25 contribution for
 * any k1 >= 0 and 0 <= b <= 1 (the tf part grows with tf and shrinks with
 * document length), which is what block-max pruning needs.
 *
 * Varints are little-endian base-128 (LEB128, unsigned).
 */

/** Postings per block: the unit of skipping and of block-max bounds. */
export const BLOCK_SIZE = 128;

/** A growable byte buffer with varint writers. */
export class ByteWriter {
  private buf: Uint8Array;
  /** Bytes written so far. */
  length = 0;

  constructor(initial = 1024) {
    this.buf = new Uint8Array(initial);
  }

  private ensure(extra: number): void {
    if (this.length + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  /** Append an unsigned integer (any safe integer >= 0) as a varint. */
  uint(value: number): void {
    this.ensure(8);
    let v = value;
    if (v < 0x80000000) {
      while (v >= 0x80) {
        this.buf[this.length++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
    } else {
      while (v >= 0x80) {
        this.buf[this.length++] = (v % 0x80) | 0x80;
        v = Math.floor(v / 0x80);
      }
    }
    this.buf[this.length++] = v;
  }

  /** Append raw bytes. */
  bytes(data: Uint8Array): void {
    this.ensure(data.length);
    this.buf.set(data, this.length);
    this.length += data.length;
  }

  /** A copy of the bytes written (safe to keep after `reset`). */
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }

  /** Forget the contents, keeping the allocation. */
  reset(): void {
    this.length = 0;
  }
}

/** Sequential varint reader over a byte array. */
export class ByteReader {
  constructor(
    readonly data: Uint8Array,
    /** Read position. */
    public pos = 0,
  ) {}

  /** Read one varint (any safe integer). */
  uint(): number {
    const d = this.data;
    let b = d[this.pos++]!;
    if (b < 0x80) return b;
    let v = b & 0x7f;
    let mul = 0x80;
    do {
      b = d[this.pos++]!;
      v += (b & 0x7f) * mul;
      mul *= 0x80;
    } while (b >= 0x80);
    return v;
  }
}

/** The encoded postings of one term in one segment, with its whole-list bounds. */
export interface EncodedPostings {
  data: Uint8Array;
  maxTf: number;
  minDl: number;
}

const payload = new ByteWriter(4096);
const header = new ByteWriter(256);

/**
 * Encode `count` postings (local doc numbers ascending, tfs) of one term;
 * `dls` gives each local document's length, for the block bounds.
 */
export function encodePostings(docs: ArrayLike<number>, tfs: ArrayLike<number>, count: number, dls: ArrayLike<number>): EncodedPostings {
  payload.reset();
  header.reset();
  const nblocks = Math.ceil(count / BLOCK_SIZE);
  if (nblocks > 1) header.uint(nblocks);
  let maxTf = 0;
  let minDl = Number.MAX_SAFE_INTEGER;
  let prev = -1;
  for (let start = 0; start < count; start += BLOCK_SIZE) {
    const end = Math.min(count, start + BLOCK_SIZE);
    const blockPrev = prev;
    const before = payload.length;
    let bMaxTf = 0;
    let bMinDl = Number.MAX_SAFE_INTEGER;
    for (let i = start; i < end; i++) {
      const doc = docs[i]!;
      const tf = tfs[i]!;
      payload.uint(doc - prev - 1);
      payload.uint(tf);
      prev = doc;
      if (tf > bMaxTf) bMaxTf = tf;
      const dl = dls[doc]!;
      if (dl < bMinDl) bMinDl = dl;
    }
    if (nblocks > 1) {
      header.uint(prev - blockPrev);
      header.uint(bMaxTf);
      header.uint(bMinDl);
      header.uint(payload.length - before);
    }
    if (bMaxTf > maxTf) maxTf = bMaxTf;
    if (bMinDl < minDl) minDl = bMinDl;
  }
  if (nblocks > 1) {
    header.bytes(payload.toBytes());
    return { data: header.toBytes(), maxTf, minDl };
  }
  return { data: payload.toBytes(), maxTf, minDl };
}

/**
 * Decode all `df` postings of a term into `docs`/`tfs` (which must hold df
 * entries). Used by merges; queries decode block by block (postings-query.ts).
 */
export function decodePostings(data: Uint8Array, df: number, docs: Int32Array, tfs: Int32Array): void {
  const r = new ByteReader(data);
  const nblocks = Math.ceil(df / BLOCK_SIZE);
  if (nblocks > 1) {
    r.uint();
    for (let i = 0; i < nblocks; i++) {
      r.uint();
      r.uint();
      r.uint();
      r.uint();
    }
  }
  let prev = -1;
  for (let i = 0; i < df; i++) {
    prev += r.uint() + 1;
    docs[i] = prev;
    tfs[i] = r.uint();
  }
}

/** Encode a segment's document table: rowids ascending, then lengths. */
export function encodeDocTable(rowids: ArrayLike<number>, dls: ArrayLike<number>, count: number): Uint8Array {
  const w = new ByteWriter(Math.max(64, count * 3));
  let prev = -1;
  for (let i = 0; i < count; i++) {
    const r = rowids[i]!;
    w.uint(r - prev - 1);
    prev = r;
  }
  for (let i = 0; i < count; i++) w.uint(dls[i]!);
  return w.toBytes();
}

/** A segment's document table in memory: local doc number -> rowid, length. */
export interface DocTable {
  rowids: Float64Array;
  dls: Int32Array;
}

/** Decode a document table written by {@link encodeDocTable}. */
export function decodeDocTable(data: Uint8Array, count: number): DocTable {
  const r = new ByteReader(data);
  const rowids = new Float64Array(count);
  const dls = new Int32Array(count);
  let prev = -1;
  for (let i = 0; i < count; i++) {
    prev += r.uint() + 1;
    rowids[i] = prev;
  }
  for (let i = 0; i < count; i++) dls[i] = r.uint();
  return { rowids, dls };
}

/** Index of `rowid` in an ascending array, or -1. */
export function findRowid(rowids: Float64Array, rowid: number): number {
  let lo = 0;
  let hi = rowids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = rowids[mid]!;
    if (v < rowid) lo = mid + 1;
    else if (v > rowid) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/**
 * Forward lists (document -> its term ordinals in the segment), stored in
 * blocks of {@link BLOCK_SIZE} documents: per document varint count, then the
 * ascending ordinals delta-coded like postings. Removal reads one document's
 * list to adjust document frequencies; merges stream them.
 */
export function encodeForward(w: ByteWriter, ords: ArrayLike<number>, count: number): void {
  w.uint(count);
  let prev = -1;
  for (let i = 0; i < count; i++) {
    const o = ords[i]!;
    w.uint(o - prev - 1);
    prev = o;
  }
}

/** Read one document's forward list at the reader's position into `out`; returns its length. */
export function decodeForward(r: ByteReader, out: number[]): number {
  const n = r.uint();
  out.length = 0;
  let prev = -1;
  for (let i = 0; i < n; i++) {
    prev += r.uint() + 1;
    out.push(prev);
  }
  return n;
}

/** Skip one document's forward list. */
export function skipForward(r: ByteReader): void {
  const n = r.uint();
  for (let i = 0; i < n; i++) r.uint();
}

/**
 * Order of terms everywhere in the index: Unicode code point order, which is
 * the byte order of their UTF-8 encoding and so the order SQLite's BINARY
 * collation gives the leaves' `first_term` column. (JavaScript's `<` compares
 * UTF-16 code units, which differs for characters above U+FFFF.)
 */
export function compareTerms(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (U+D800-DFFF) encode code points above every BMP character.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x < 0xe000 ? x + 0x2000 : x - 0x800;
      y = y < 0xe000 ? y + 0x2000 : y - 0x800;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** Compare two byte strings (the first `an` / `bn` bytes). */
export function compareBytes(a: Uint8Array, an: number, b: Uint8Array, bn: number): number {
  const n = Math.min(an, bn);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return an - bn;
}

const utf8Decoder = new TextDecoder();

/**
 * A term's UTF-8 bytes (lone surrogates become U+FFFD, on both the index and
 * query side). Hand-written: TextEncoder's per-call cost dominates for the
 * short strings terms are.
 */
export function termBytes(term: string): Uint8Array {
  const n = term.length;
  const out = new Uint8Array(n * 3);
  let o = 0;
  for (let i = 0; i < n; i++) {
    let c = term.charCodeAt(i);
    if (c < 0x80) {
      out[o++] = c;
      continue;
    }
    if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6);
      out[o++] = 0x80 | (c & 0x3f);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < n ? term.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        out[o++] = 0xf0 | (cp >> 18);
        out[o++] = 0x80 | ((cp >> 12) & 0x3f);
        out[o++] = 0x80 | ((cp >> 6) & 0x3f);
        out[o++] = 0x80 | (cp & 0x3f);
        continue;
      }
      c = 0xfffd;
    }
    out[o++] = 0xe0 | (c >> 12);
    out[o++] = 0x80 | ((c >> 6) & 0x3f);
    out[o++] = 0x80 | (c & 0x3f);
  }
  return out.subarray(0, o);
}

/** The term of some UTF-8 bytes. */
export function termString(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

/**
 * Sequential reader of a term leaf: a segment's terms in order, many per row,
 * front-coded (FTS5 and Lucene keep their term dictionaries the same way):
 *
 *   varint ordinal of the first term
 *   per term: varint shared prefix length, varint suffix length, suffix bytes,
 *             varint df, varint maxTf, varint minDl,
 *             varint inline length, inline postings (length 0: the postings are
 *             in their own row, keyed by the term's ordinal)
 */
export class LeafCursor {
  private readonly r: ByteReader;
  private buf = new Uint8Array(64);
  /** Current term: its bytes are `term().subarray(0, termLength)`. */
  termLength = 0;
  ord: number;
  df = 0;
  maxTf = 0;
  minDl = 0;
  inlineStart = 0;
  inlineLength = 0;

  constructor(readonly data: Uint8Array) {
    this.r = new ByteReader(data);
    this.ord = this.r.uint() - 1;
  }

  /** Advance to the next term; false at the end of the leaf. */
  next(): boolean {
    const r = this.r;
    const d = this.data;
    if (r.pos >= d.length) return false;
    const prefix = r.uint();
    const suffix = r.uint();
    const len = prefix + suffix;
    if (len > this.buf.length) {
      const bigger = new Uint8Array(Math.max(len, this.buf.length * 2));
      bigger.set(this.buf.subarray(0, prefix));
      this.buf = bigger;
    }
    const buf = this.buf;
    let from = r.pos;
    for (let i = prefix; i < len; i++) buf[i] = d[from++]!;
    r.pos = from;
    this.termLength = len;
    this.df = r.uint();
    this.maxTf = r.uint();
    this.minDl = r.uint();
    this.inlineLength = r.uint();
    this.inlineStart = r.pos;
    r.pos += this.inlineLength;
    this.ord++;
    return true;
  }

  /** The buffer holding the current term's bytes (valid until `next`). */
  term(): Uint8Array {
    return this.buf;
  }

  /** A copy of the current term's bytes. */
  termCopy(): Uint8Array {
    return this.buf.slice(0, this.termLength);
  }

  /** The inline postings, or undefined when they live in their own row. */
  inline(): Uint8Array | undefined {
    return this.inlineLength > 0 ? this.data.subarray(this.inlineStart, this.inlineStart + this.inlineLength) : undefined;
  }

  /** Position at `target` if the leaf holds it (the leaf's terms are sorted). */
  seek(target: Uint8Array): boolean {
    while (this.next()) {
      const c = compareBytes(this.buf, this.termLength, target, target.length);
      if (c === 0) return true;
      if (c > 0) return false;
    }
    return false;
  }
}

/** Builds term leaves (see {@link LeafCursor}). */
export class LeafBuilder {
  private readonly w = new ByteWriter(4096);
  private prev: Uint8Array = new Uint8Array(0);
  /** First term of the leaf being built (undefined when empty). */
  first: Uint8Array | undefined;

  /** Bytes in the leaf so far. */
  get length(): number {
    return this.w.length;
  }

  add(term: Uint8Array, ord: number, df: number, maxTf: number, minDl: number, inline: Uint8Array | undefined): void {
    const w = this.w;
    if (this.first === undefined) {
      this.first = term;
      w.uint(ord);
      this.prev = new Uint8Array(0);
    }
    const prev = this.prev;
    const n = Math.min(prev.length, term.length);
    let p = 0;
    while (p < n && prev[p] === term[p]) p++;
    w.uint(p);
    w.uint(term.length - p);
    w.bytes(term.subarray(p));
    w.uint(df);
    w.uint(maxTf);
    w.uint(minDl);
    if (inline === undefined) {
      w.uint(0);
    } else {
      w.uint(inline.length);
      w.bytes(inline);
    }
    this.prev = term;
  }

  /** The leaf's bytes; the builder starts a new leaf. */
  take(): Uint8Array {
    const out = this.w.toBytes();
    this.w.reset();
    this.first = undefined;
    return out;
  }
}
