/**
 * Exact top-k BM25 over one segment's postings: MaxScore (Turtle & Flood)
 * with block-max bounds (Ding & Suel). Terms whose summed upper bounds cannot
 * lift a document above the current k-th score are "non-essential": they are
 * only probed for documents found through the essential terms. On top of
 * that, whole blocks are skipped without decoding when the bounds of the
 * blocks under the cursors cannot beat the k-th score.
 *
 * Pruning only discards documents whose upper bound is strictly below the
 * k-th score (bounds are inflated by a relative 1e-9 against rounding), so the
 * result is the exact top k; equal scores are ordered by rowid ascending.
 */
import type { Bm25Params } from "../bm25.js";
import { BLOCK_SIZE } from "./postings-codec.js";
import { WINDOW, type BlockBuffers, type ScoringScratch } from "./scoring-scratch.js";

/** End-of-list sentinel (larger than any local document number). */
export const END = 0x7fffffff;

/** Relative inflation of upper bounds: summation order may differ by a few ulps. */
const BOUND_SLACK = 1 + 1e-9;

/** The k best (score, rowid) pairs seen so far; worst at the root. */
export class TopK {
  readonly scores: Float64Array;
  readonly rowids: Float64Array;
  size = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(k);
    this.rowids = new Float64Array(k);
  }

  /** Score a document must reach to be considered (0 until k documents are held). */
  threshold(): number {
    return this.size < this.k ? 0 : this.scores[0]!;
  }

  /** Whether (score, rowid) would enter: a higher score, or an equal one with a smaller rowid. */
  accepts(score: number, rowid: number): boolean {
    if (this.size < this.k) return true;
    const s = this.scores[0]!;
    return score > s || (score === s && rowid < this.rowids[0]!);
  }

  private worse(i: number, j: number): boolean {
    const a = this.scores[i]!;
    const b = this.scores[j]!;
    return a < b || (a === b && this.rowids[i]! > this.rowids[j]!);
  }

  private swap(i: number, j: number): void {
    const s = this.scores[i]!;
    this.scores[i] = this.scores[j]!;
    this.scores[j] = s;
    const r = this.rowids[i]!;
    this.rowids[i] = this.rowids[j]!;
    this.rowids[j] = r;
  }

  /** Insert; call only after {@link accepts} returned true. */
  push(score: number, rowid: number): void {
    if (this.size < this.k) {
      let i = this.size++;
      this.scores[i] = score;
      this.rowids[i] = rowid;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    this.scores[0] = score;
    this.rowids[0] = rowid;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const c = r < this.size && this.worse(r, l) ? r : l;
      if (!this.worse(c, i)) break;
      this.swap(c, i);
      i = c;
    }
  }

  /** Results, best first. */
  sorted(): Array<{ rowid: number; score: number }> {
    const out: Array<{ rowid: number; score: number }> = [];
    for (let i = 0; i < this.size; i++) out.push({ rowid: this.rowids[i]!, score: this.scores[i]! });
    out.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
    return out;
  }
}

/**
 * One term's postings in one segment with its block directory parsed:
 * immutable, so it can be cached across queries.
 */
export class PostingList {
  readonly nblocks: number;
  /**
   * The block directory in one array: the last local document of each block
   * at [0, nblocks), the byte offset of each block's payload (plus the end)
   * from nblocks, then each block's max tf, then its min dl. One array, not
   * four: most lists are a single block, and four small typed arrays held
   * about 600 bytes of heap for each one (the caches keep thousands).
   */
  readonly dir: Int32Array;

  constructor(
    readonly data: Uint8Array,
    /** Postings in the list (tombstoned ones included). */
    readonly df: number,
    maxTf: number,
    minDl: number,
  ) {
    const nblocks = Math.ceil(df / BLOCK_SIZE);
    this.nblocks = nblocks;
    const dir = new Int32Array(4 * nblocks + 1);
    this.dir = dir;
    const off = nblocks;
    const maxTfs = 2 * nblocks + 1;
    const minDls = 3 * nblocks + 1;
    let pos = 0;
    const read = (): number => {
      let b = data[pos++]!;
      let v = b & 0x7f;
      let shift = 7;
      while (b >= 0x80) {
        b = data[pos++]!;
        v |= (b & 0x7f) << shift;
        shift += 7;
      }
      return v;
    };
    if (nblocks === 1) {
      // No directory: the last document is found by walking the postings once.
      let doc = -1;
      for (let i = 0; i < df; i++) {
        doc += read() + 1;
        read();
      }
      dir[0] = doc;
      dir[off + 1] = data.length;
      dir[maxTfs] = maxTf;
      dir[minDls] = minDl;
      return;
    }
    read(); // nblocks
    let last = -1;
    const lens = new Int32Array(nblocks);
    for (let i = 0; i < nblocks; i++) {
      last += read();
      dir[i] = last;
      dir[maxTfs + i] = read();
      dir[minDls + i] = read();
      lens[i] = read();
    }
    let at = pos;
    for (let i = 0; i < nblocks; i++) {
      dir[off + i] = at;
      at += lens[i]!;
    }
    dir[off + nblocks] = at;
  }

  /**
   * Approximate memory held, for cache accounting: the two arrays' bytes plus
   * about 500 for the three objects (measured: a one-block list of 2 bytes of
   * postings holds 524 bytes of heap).
   */
  get bytes(): number {
    return this.data.byteLength + this.dir.byteLength + 500;
  }
}

/**
 * A cursor over one term's postings in one segment. Blocks are decoded
 * lazily: moving past a block only reads the block directory.
 */
export class PostingCursor {
  /** idf * (k1 + 1): the term's weight in the tf part. */
  readonly w: number;
  /** Upper bound of this term's contribution in this segment. */
  ub = 0;
  readonly nblocks: number;
  /** The list's block directory (PostingList.dir): last documents from 0, payload offsets from `offAt`. */
  readonly dir: Int32Array;
  private readonly offAt: number;
  readonly blkUB: Float64Array;
  private readonly data: Uint8Array;
  /** Current block, whether it is decoded, position in it, postings in it. */
  bi = 0;
  decoded = false;
  pos = 0;
  n = 0;
  /** While not decoded: the cursor stands at the first posting >= target. */
  target = 0;
  /** The decoded block's documents and term frequencies (BLOCK_SIZE each, lent by the query's scratch). */
  readonly docs: Int32Array;
  readonly tfs: Int32Array;

  constructor(list: PostingList, idf: number, p: Bm25Params, block: BlockBuffers) {
    this.docs = block.docs;
    this.tfs = block.tfs;
    this.w = idf * (p.k1 + 1);
    this.data = list.data;
    this.nblocks = list.nblocks;
    this.dir = list.dir;
    this.offAt = list.nblocks;
    const nb = list.nblocks;
    const ubs = new Float64Array(nb);
    let ub = 0;
    for (let i = 0; i < nb; i++) {
      const u = this.bound(list.dir[2 * nb + 1 + i]!, list.dir[3 * nb + 1 + i]!, p);
      ubs[i] = u;
      if (u > ub) ub = u;
    }
    this.blkUB = ubs;
    this.ub = ub;
  }

  private bound(maxTf: number, minDl: number, p: Bm25Params): number {
    return ((this.w * maxTf) / (maxTf + p.normA + p.normB * minDl)) * BOUND_SLACK;
  }

  /** Decode block `bi` and stand at its first posting >= target. */
  decodeBlock(): void {
    const data = this.data;
    let pos = this.dir[this.offAt + this.bi]!;
    const end = this.dir[this.offAt + this.bi + 1]!;
    let doc = this.bi === 0 ? -1 : this.dir[this.bi - 1]!;
    let n = 0;
    const docs = this.docs;
    const tfs = this.tfs;
    while (pos < end) {
      let b = data[pos++]!;
      let v = b & 0x7f;
      let shift = 7;
      while (b >= 0x80) {
        b = data[pos++]!;
        v |= (b & 0x7f) << shift;
        shift += 7;
      }
      doc += v + 1;
      b = data[pos++]!;
      let t = b & 0x7f;
      shift = 7;
      while (b >= 0x80) {
        b = data[pos++]!;
        t |= (b & 0x7f) << shift;
        shift += 7;
      }
      docs[n] = doc;
      tfs[n] = t;
      n++;
    }
    this.n = n;
    let i = 0;
    const target = this.target;
    while (docs[i]! < target) i++;
    this.pos = i;
    this.decoded = true;
  }

  /**
   * Add the current, undecoded block (which ends inside the window starting
   * at `base`) to the window's accumulator, decoding and scoring in one pass,
   * and move to the next block. Returns the new count of touched words.
   */
  accumulateBlock(base: number, scratch: ScoringScratch, nwords: number, normA: number, normB: number, dls: Int32Array): number {
    const { acc, bits, words } = scratch;
    const data = this.data;
    let pos = this.dir[this.offAt + this.bi]!;
    const end = this.dir[this.offAt + this.bi + 1]!;
    let doc = this.bi === 0 ? -1 : this.dir[this.bi - 1]!;
    const target = this.target;
    const w = this.w;
    let touched = nwords;
    while (pos < end) {
      let b = data[pos++]!;
      let v = b & 0x7f;
      let shift = 7;
      while (b >= 0x80) {
        b = data[pos++]!;
        v |= (b & 0x7f) << shift;
        shift += 7;
      }
      doc += v + 1;
      b = data[pos++]!;
      let tf = b & 0x7f;
      shift = 7;
      while (b >= 0x80) {
        b = data[pos++]!;
        tf |= (b & 0x7f) << shift;
        shift += 7;
      }
      if (doc < target) continue;
      const score = (w * tf) / (tf + normA + normB * dls[doc]!);
      const local = doc - base;
      const word = local >> 5;
      const bit = 1 << (local & 31);
      const have = bits[word]!;
      if ((have & bit) !== 0) {
        acc[local] = acc[local]! + score;
      } else {
        if (have === 0) words[touched++] = word;
        bits[word] = have | bit;
        acc[local] = score;
      }
    }
    this.bi++;
    this.decoded = false;
    this.target = 0;
    return touched;
  }

  /** A lower bound of the current document (exact when decoded); END when exhausted. */
  lb(): number {
    if (this.bi >= this.nblocks) return END;
    if (this.decoded) return this.docs[this.pos]!;
    const start = this.bi === 0 ? 0 : this.dir[this.bi - 1]! + 1;
    return this.target > start ? this.target : start;
  }

  /** The current document, decoding if needed; END when exhausted. */
  doc(): number {
    if (this.bi >= this.nblocks) return END;
    if (!this.decoded) this.decodeBlock();
    return this.docs[this.pos]!;
  }

  /** Move past the current (decoded) posting. */
  next(): void {
    if (++this.pos < this.n) return;
    this.bi++;
    this.decoded = false;
    this.target = 0;
  }

  /** Move to the first posting >= t (lazily: may leave the block undecoded). */
  advance(t: number): void {
    const bi = this.bi;
    if (bi >= this.nblocks) return;
    if (t <= this.dir[bi]!) {
      if (this.decoded) {
        const docs = this.docs;
        let i = this.pos;
        while (docs[i]! < t) i++;
        this.pos = i;
      } else if (t > this.target) {
        this.target = t;
      }
      return;
    }
    this.skipTo(t);
  }

  /**
   * {@link advance} past the current block: a forward walk over the block
   * directory. A cursor only moves forward, so a query reads each entry at
   * most once, and the walk has no rarely-taken branch (`bi === nblocks` is
   * the exhausted state). Rare branches matter here: a fresh process's scorers
   * are optimized with this inlined, and the first query to take a branch
   * never taken before deoptimizes them, so each is compiled again (a galloping
   * search cost two such rounds, about 35 ms of a compiler thread each).
   */
  private skipTo(t: number): void {
    const last = this.dir;
    const nb = this.nblocks;
    let b = this.bi + 1;
    while (b < nb && last[b]! < t) b++;
    this.bi = b;
    this.decoded = false;
    this.target = t;
  }
}

/** What the scorer needs of a segment. */
export interface SegmentView {
  rowids: Float64Array;
  dls: Int32Array;
  /** 1 for deleted local documents, or null when none is deleted. */
  dead: Uint8Array | null;
}

/**
 * Add the non-essential terms cur[0..ne) to a document's partial score, in
 * descending bound order; returns -1 as soon as the document cannot reach
 * `theta` any more.
 */
function probeNonEssential(
  cur: PostingCursor[],
  ne: number,
  cum: Float64Array,
  d: number,
  normA: number,
  lenPart: number,
  partial: number,
  theta: number,
): number {
  let score = partial;
  for (let i = ne - 1; i >= 0; i--) {
    if (score + cum[i]! < theta) return -1;
    const c = cur[i]!;
    c.advance(d);
    if (c.bi >= c.nblocks || c.lb() > d) continue;
    if (!c.decoded && score + c.blkUB[c.bi]! + (i > 0 ? cum[i - 1]! : 0) < theta) return -1;
    if (c.doc() === d) {
      const tf = c.tfs[c.pos]!;
      score += (c.w * tf) / (tf + normA + lenPart);
    }
  }
  return score;
}

/**
 * Score one segment's cursors into `top`: MaxScore over the terms with
 * block-max skipping. `allow` is asked only about documents that would enter
 * the top k (it filters inside the query, so the k results are the best
 * allowed ones).
 */
export function scoreSegment(
  input: PostingCursor[],
  seg: SegmentView,
  p: Bm25Params,
  top: TopK,
  allow: ((rowid: number) => boolean) | undefined,
  scratch: ScoringScratch,
): void {
  const cur = input.slice().sort((a, b) => a.ub - b.ub);
  const m = cur.length;
  if (m === 0) return;
  // cum[i]: upper bound of the i+1 weakest terms together.
  const cum = new Float64Array(m);
  let acc = 0;
  for (let i = 0; i < m; i++) {
    acc += cur[i]!.ub;
    cum[i] = acc;
  }
  const theta = top.threshold();
  let ne = 0; // cur[0..ne) are non-essential
  while (ne < m && cum[ne]! < theta) ne++;
  if (ne === m) return;
  if (ne === m - 1) scoreOneEssential(cur, cum, ne, seg, p, top, allow);
  else scoreWindows(cur, cum, ne, seg, p, top, allow, scratch);
}

/** The largest block bound of `c` over documents up to `last` (0 if it has none there). */
function windowBound(c: PostingCursor, last: number): number {
  if (c.bi >= c.nblocks || c.lb() > last) return 0;
  let max = 0;
  for (let b = c.bi; b < c.nblocks; b++) {
    const u = c.blkUB[b]!;
    if (u > max) max = u;
    if (c.dir[b]! >= last) break;
  }
  return max;
}

/**
 * MaxScore with several essential terms, evaluated window by window (as
 * Lucene's MaxScoreBulkScorer does): the essential terms' postings in a
 * window of {@link WINDOW} documents are accumulated term at a time into an
 * array, then the candidates are visited in document order, each first
 * checked against the bound of the non-essential terms and only then probed
 * in them. A window whose block bounds cannot reach the k-th score is skipped
 * without decoding.
 */
function scoreWindows(
  cur: PostingCursor[],
  cum: Float64Array,
  firstNe: number,
  seg: SegmentView,
  p: Bm25Params,
  top: TopK,
  allow: ((rowid: number) => boolean) | undefined,
  scratch: ScoringScratch,
): void {
  const m = cur.length;
  const { rowids, dls, dead } = seg;
  const { normA, normB } = p;
  const n = rowids.length;
  const { acc, bits, words } = scratch;
  let ne = firstNe;
  let theta = top.threshold();
  for (let base = 0; base < n; base += WINDOW) {
    if (ne >= m - 1) {
      if (ne === m - 1) scoreOneEssential(cur, cum, ne, seg, p, top, allow);
      return;
    }
    const last = Math.min(n, base + WINDOW) - 1;
    // Jump over windows none of the essential terms occurs in.
    let first = END;
    for (let i = ne; i < m; i++) {
      const c = cur[i]!;
      c.advance(base);
      const l = c.lb();
      if (l < first) first = l;
    }
    if (first === END) return;
    if (first > last) {
      base = first - (first % WINDOW) - WINDOW;
      continue;
    }
    const neW = ne; // the essential set is fixed within a window
    const neBound = neW > 0 ? cum[neW - 1]! : 0;
    if (theta > 0) {
      let bound = neBound;
      for (let i = neW; i < m; i++) bound += windowBound(cur[i]!, last);
      if (bound < theta) continue;
    }
    // Accumulate the essential terms over the window.
    let nwords = 0;
    for (let i = neW; i < m; i++) {
      const c = cur[i]!;
      const w = c.w;
      while (c.bi < c.nblocks && c.lb() <= last) {
        if (!c.decoded && c.dir[c.bi]! <= last) {
          nwords = c.accumulateBlock(base, scratch, nwords, normA, normB, dls);
          continue;
        }
        if (!c.decoded) c.decodeBlock();
        const docs = c.docs;
        const tfs = c.tfs;
        const cnt = c.n;
        let j = c.pos;
        for (; j < cnt; j++) {
          const d = docs[j]!;
          if (d > last) break;
          const tf = tfs[j]!;
          const v = (w * tf) / (tf + normA + normB * dls[d]!);
          const local = d - base;
          const word = local >> 5;
          const bit = 1 << (local & 31);
          const have = bits[word]!;
          if ((have & bit) !== 0) {
            acc[local] = acc[local]! + v;
          } else {
            if (have === 0) words[nwords++] = word;
            bits[word] = have | bit;
            acc[local] = v;
          }
        }
        if (j < cnt) {
          c.pos = j;
          break;
        }
        c.bi++;
        c.decoded = false;
        c.target = 0;
      }
    }
    // Visit the candidates in document order.
    words.subarray(0, nwords).sort();
    for (let x = 0; x < nwords; x++) {
      const wi = words[x]!;
      let word = bits[wi]!;
      bits[wi] = 0;
      while (word !== 0) {
        const low = word & -word;
        word ^= low;
        const local = (wi << 5) + (31 - Math.clz32(low));
        const d = base + local;
        let score = acc[local]!;
        if (score + neBound < theta) continue;
        if (dead !== null && dead[d] === 1) continue;
        if (neW > 0) {
          score = probeNonEssential(cur, neW, cum, d, normA, normB * dls[d]!, score, theta);
          if (score < 0) continue;
        }
        const rowid = rowids[d]!;
        if (!top.accepts(score, rowid)) continue;
        if (allow !== undefined && !allow(rowid)) continue;
        top.push(score, rowid);
        const t = top.threshold();
        if (t !== theta) {
          theta = t;
          while (ne < m && cum[ne]! < theta) ne++;
        }
      }
    }
  }
}

/**
 * The common end state of MaxScore: a single essential term (always the case
 * for one-term queries). A tight loop over its blocks, skipping whole blocks
 * whose bound (plus every non-essential bound) cannot reach the k-th score.
 */
function scoreOneEssential(
  cur: PostingCursor[],
  cum: Float64Array,
  ne: number,
  seg: SegmentView,
  p: Bm25Params,
  top: TopK,
  allow: ((rowid: number) => boolean) | undefined,
): void {
  const m = cur.length;
  const c = cur[m - 1]!;
  const neBound = ne > 0 ? cum[ne - 1]! : 0;
  const { rowids, dls, dead } = seg;
  const { normA, normB } = p;
  const w = c.w;
  let theta = top.threshold();
  while (c.bi < c.nblocks) {
    if (theta > 0 && c.blkUB[c.bi]! + neBound < theta) {
      c.bi++;
      c.decoded = false;
      c.target = 0;
      continue;
    }
    if (!c.decoded) c.decodeBlock();
    const docs = c.docs;
    const tfs = c.tfs;
    const n = c.n;
    for (let i = c.pos; i < n; i++) {
      const d = docs[i]!;
      if (dead !== null && dead[d] === 1) continue;
      const tf = tfs[i]!;
      // Associated as everywhere else, (tf + normA) + normB * dl: every path (and the PostgreSQL store) rounds alike.
      const lenPart = normB * dls[d]!;
      let score = (w * tf) / (tf + normA + lenPart);
      if (score + neBound < theta) continue;
      if (ne > 0) {
        score = probeNonEssential(cur, ne, cum, d, normA, lenPart, score, theta);
        if (score < 0) continue;
      }
      const rowid = rowids[d]!;
      if (!top.accepts(score, rowid)) continue;
      if (allow !== undefined && !allow(rowid)) continue;
      top.push(score, rowid);
      const t = top.threshold();
      if (t !== theta) {
        theta = t;
        if (cum[m - 1]! < theta) return; // even all terms together cannot reach it now
      }
    }
    c.bi++;
    c.decoded = false;
    c.target = 0;
  }
}

/** One term's postings over a small document set, scored without pruning. */
export interface ExhaustiveList {
  /** idf * (k1 + 1). */
  w: number;
  docs: ArrayLike<number>;
  tfs: ArrayLike<number>;
}

/**
 * Score a small document set (the pending documents) term by term into `top`.
 * `docs` index `rowids` and `dls`.
 */
export function scoreExhaustive(
  lists: ExhaustiveList[],
  rowids: Float64Array,
  dls: Int32Array,
  p: Bm25Params,
  top: TopK,
  allow: ((rowid: number) => boolean) | undefined,
  scratch: ScoringScratch,
): void {
  if (lists.length === 0) return;
  const { sums, seen } = scratch.exhaustive(rowids.length);
  const touched: number[] = [];
  for (const l of lists) {
    const { w, docs, tfs } = l;
    for (let j = 0; j < docs.length; j++) {
      const d = docs[j]!;
      const tf = tfs[j]!;
      sums[d] = sums[d]! + (w * tf) / (tf + p.normA + p.normB * dls[d]!);
      if (seen[d] === 0) {
        seen[d] = 1;
        touched.push(d);
      }
    }
  }
  for (const d of touched) {
    const score = sums[d]!;
    const rowid = rowids[d]!;
    if (top.accepts(score, rowid) && (allow === undefined || allow(rowid))) top.push(score, rowid);
  }
  for (const d of touched) {
    sums[d] = 0;
    seen[d] = 0;
  }
}
