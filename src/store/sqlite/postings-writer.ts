/**
 * Writing the BM25 postings (postings.ts has the overview), always inside the
 * caller's transaction, which a rollback undoes with everything else.
 *
 * - `add` appends one row to `bm25_pending`; once `flushThreshold` documents
 *   are pending, the `add` that crossed it turns them into a level-0 segment,
 *   and every `mergeFactor` segments of one level are merged into one of the
 *   next level. So an occasional `add` takes longer (a merge into a
 *   262k-document segment: seconds).
 * - `remove` tombstones a document and, through its forward list, counts the
 *   removed postings per (segment, term), so N, avgdl and df stay exact.
 *   A segment a third dead is rewritten without its dead documents.
 * - Every write changes the state's nonce, which tells readers (this
 *   connection's or another's) to drop their nonce-keyed caches.
 */
import { GroundkitError } from "../../core/errors.js";
import { compareBytes, compareTerms, decodePostings, findRowid, termBytes } from "./postings-codec.js";
import {
  ForwardReader,
  MAX_SEGMENT_ID,
  SegmentWriter,
  TermStream,
  encodeCounts,
  key,
  randomId,
  readState,
  type PendingRow,
  type PostingsTables,
  type SegmentRow,
  type Statements,
} from "./postings-format.js";
import type { PendingRows } from "./postings-pending.js";
import type { SegmentCache } from "./postings-segment-cache.js";

function checkRowid(rowid: number): void {
  if (!Number.isSafeInteger(rowid) || rowid < 0) {
    throw new GroundkitError("INTERNAL", `BM25 postings: rowid must be a non-negative safe integer (got ${rowid}).`);
  }
}

/** Adds and removes documents; flushes and merges segments as they fill up. */
export class PostingsWriter {
  constructor(
    private readonly tables: PostingsTables,
    private readonly segmentCache: SegmentCache,
    private readonly pendingRows: PendingRows,
    /** Pending documents that become a segment. */
    private readonly flushThreshold: number,
    /** Segments of one level merged into one. */
    private readonly mergeFactor: number,
  ) {}

  /** Statements for a write, which must run inside the caller's transaction (several rows change together). */
  private writable(): Statements {
    if (!this.tables.db.inTransaction) {
      throw new GroundkitError("INTERNAL", "BM25 postings: add/remove must run inside the caller's transaction.");
    }
    const s = this.tables.statements();
    if (!s) throw new GroundkitError("INTERNAL", "BM25 postings: the index tables do not exist (read-only connection).");
    return s;
  }

  /** PostingsIndex.add (postings.ts): pend the document, and flush when enough are pending. */
  add(rowid: number, tokens: string[]): void {
    checkRowid(rowid);
    const s = this.writable();
    const counts = encodeCounts(tokens);
    const st = readState(s);
    if (rowid <= st.max_seg_doc && this.locateLive(s, rowid) !== undefined) {
      throw new GroundkitError("INTERNAL", `BM25 postings: rowid ${rowid} is already indexed.`);
    }
    try {
      s.insertPending.run(rowid, tokens.length, counts.data);
    } catch (err) {
      if ((err as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
        throw new GroundkitError("INTERNAL", `BM25 postings: rowid ${rowid} is already indexed.`, undefined, { cause: err });
      }
      throw err;
    }
    const pending = s.bumpAdd.get(tokens.length, randomId()) as number;
    this.pendingRows.remember(rowid, counts);
    if (pending >= this.flushThreshold) this.flush(s);
  }

  /** PostingsIndex.remove (postings.ts): drop a pending row, or tombstone the segment's copy. */
  remove(rowid: number): boolean {
    checkRowid(rowid);
    const s = this.writable();
    const st = readState(s);
    const dl = s.deletePending.get(rowid) as number | undefined;
    if (dl !== undefined) {
      s.bumpRemove.run(dl, 1, randomId());
      this.pendingRows.forget(rowid);
      return true;
    }
    if (rowid > st.max_seg_doc) return false;
    const loc = this.locateLive(s, rowid);
    if (!loc) return false;
    const { seg, local } = loc;
    s.insertDeleted.run(key(seg.id, local));
    const ords: number[] = [];
    new ForwardReader(s, seg.id).read(local, ords);
    for (const ord of ords) s.deadTermInc.run(key(seg.id, ord));
    s.markDead.run(randomId(), seg.id);
    s.bumpRemove.run(this.segmentCache.docTable(s, seg).dls[local]!, 0, randomId());
    const dead = seg.dead + 1;
    if (dead >= seg.ndocs) this.dropSegment(s, seg.id);
    else if (dead * 3 >= seg.ndocs) this.mergeSegments(s, [s.getSegment.get(seg.id) as SegmentRow], seg.level);
    return true;
  }

  /** The segment and local number holding a live copy of `rowid`, if any. */
  private locateLive(s: Statements, rowid: number): { seg: SegmentRow; local: number } | undefined {
    for (const seg of s.segmentsCovering.all(rowid, rowid) as SegmentRow[]) {
      const local = findRowid(this.segmentCache.docTable(s, seg).rowids, rowid);
      if (local < 0) continue;
      if (seg.dead > 0 && s.isDeleted.get(key(seg.id, local)) !== undefined) continue;
      return { seg, local };
    }
    return undefined;
  }

  private newSegment(s: Statements, rowids: Float64Array, dls: Int32Array): SegmentWriter {
    const seg = s.allocSegment.get() as number;
    if (seg >= MAX_SEGMENT_ID) throw new GroundkitError("INTERNAL", "BM25 postings: segment ids exhausted.");
    return new SegmentWriter(s, seg, rowids, dls);
  }

  /** Turn the pending documents into a level-0 segment, then merge full levels. */
  private flush(s: Statements): void {
    const rows = s.allPending.all() as PendingRow[];
    if (rows.length > 0) {
      const v = this.pendingRows.invert(rows);
      const order = v.terms.map((_, i) => i).sort((x, y) => compareTerms(v.terms[x]!, v.terms[y]!));
      const ordOf = new Int32Array(v.terms.length);
      const w = this.newSegment(s, v.rowids, v.dls);
      for (const id of order) {
        const from = v.start[id]!;
        const to = v.start[id + 1]!;
        ordOf[id] = w.addTerm(termBytes(v.terms[id]!), v.docs.subarray(from, to), v.tfs.subarray(from, to), to - from);
      }
      for (let i = 0; i < rows.length; i++) {
        const ords = v.docTerms.slice(v.docStart[i]!, v.docStart[i + 1]!);
        for (let j = 0; j < ords.length; j++) ords[j] = ordOf[ords[j]!]!;
        ords.sort();
        w.addForward(ords, ords.length);
      }
      w.finish(0);
      s.clearPending.run();
    }
    this.pendingRows.clear();
    s.pendingFlushed.run(randomId());
    this.mergeLevels(s);
  }

  /** Merge the oldest `mergeFactor` segments of the lowest full level, until no level is full. */
  private mergeLevels(s: Statements): void {
    for (;;) {
      const byLevel = new Map<number, SegmentRow[]>();
      for (const seg of s.listSegments.all() as SegmentRow[]) {
        const list = byLevel.get(seg.level) ?? [];
        list.push(seg);
        byLevel.set(seg.level, list);
      }
      const full = [...byLevel.entries()].filter(([, l]) => l.length >= this.mergeFactor).sort((a, b) => a[0] - b[0])[0];
      if (!full) return;
      this.mergeSegments(s, full[1].slice(0, this.mergeFactor), full[0] + 1);
    }
  }

  private dropSegment(s: Statements, seg: number): void {
    const lo = key(seg, 0);
    const hi = key(seg + 1, 0);
    s.deleteLeafRange.run(lo, hi);
    s.deleteListRange.run(lo, hi);
    s.deleteForwardRange.run(lo, hi);
    s.deleteDeletedRange.run(lo, hi);
    s.deleteDeadTermRange.run(lo, hi);
    s.deleteSegment.run(seg);
    s.touch.run(randomId());
  }

  /**
   * Rewrite `sources` as one segment at `level`, dropping tombstoned
   * documents. Streams terms and forward lists; memory is bounded by the
   * document tables and the largest single postings list.
   */
  private mergeSegments(s: Statements, sources: SegmentRow[], level: number): void {
    const k = sources.length;
    const tables = sources.map((seg) => this.segmentCache.docTable(s, seg));
    const deads = sources.map((seg) => this.segmentCache.deadBitmap(s, seg));
    // New document order: the sources' live documents merged by rowid.
    let live = 0;
    for (const seg of sources) live += seg.ndocs - seg.dead;
    const rowids = new Float64Array(live);
    const dls = new Int32Array(live);
    const srcOf = new Int32Array(live);
    const oldOf = new Int32Array(live);
    const newLocal = sources.map((seg) => new Int32Array(seg.ndocs).fill(-1));
    const heads = new Int32Array(k);
    const skipDead = (i: number): void => {
      const dead = deads[i];
      if (!dead) return;
      while (heads[i]! < sources[i]!.ndocs && dead[heads[i]!] === 1) heads[i]!++;
    };
    for (let i = 0; i < k; i++) skipDead(i);
    for (let j = 0; j < live; j++) {
      let best = -1;
      let bestRowid = Infinity;
      for (let i = 0; i < k; i++) {
        if (heads[i]! >= sources[i]!.ndocs) continue;
        const r = tables[i]!.rowids[heads[i]!]!;
        if (r < bestRowid) {
          bestRowid = r;
          best = i;
        }
      }
      const old = heads[best]!;
      rowids[j] = bestRowid;
      dls[j] = tables[best]!.dls[old]!;
      srcOf[j] = best;
      oldOf[j] = old;
      newLocal[best]![old] = j;
      heads[best]!++;
      skipDead(best);
    }
    if (live > 0) {
      const w = this.newSegment(s, rowids, dls);
      const ordMaps = this.mergeTerms(s, sources, newLocal, w);
      // Forward lists in the new order; ordinals map monotonically (both sides sorted by term).
      const readers = sources.map((seg) => new ForwardReader(s, seg.id));
      const ords: number[] = [];
      for (let j = 0; j < live; j++) {
        const src = srcOf[j]!;
        const n = readers[src]!.read(oldOf[j]!, ords);
        const map = ordMaps[src]!;
        for (let i = 0; i < n; i++) ords[i] = map[ords[i]!]!;
        w.addForward(ords, n);
      }
      w.finish(level);
    }
    for (const seg of sources) {
      this.dropSegment(s, seg.id);
      this.segmentCache.forget(seg.uid);
    }
  }

  /**
   * Merge the sources' terms (each source streams them in order) into the
   * writer; returns per source the old ordinal -> new ordinal maps.
   */
  private mergeTerms(s: Statements, sources: SegmentRow[], newLocal: Int32Array[], w: SegmentWriter): Int32Array[] {
    const k = sources.length;
    const ordMaps = sources.map((seg) => new Int32Array(seg.nterms).fill(-1));
    const streams = sources.map((seg) => new TermStream(s, seg.id));
    const live = streams.map((st) => st.next());
    let docs = new Int32Array(1024);
    let tfs = new Int32Array(1024);
    let outDocs = new Int32Array(1024);
    let outTfs = new Int32Array(1024);
    const parts: Array<{ start: number; end: number }> = [];
    const from: Array<[number, number]> = [];
    for (;;) {
      // The smallest current term among the streams.
      let min = -1;
      for (let i = 0; i < k; i++) {
        if (!live[i]) continue;
        if (min < 0) {
          min = i;
          continue;
        }
        const a = streams[i]!.cursor!;
        const b = streams[min]!.cursor!;
        if (compareBytes(a.term(), a.termLength, b.term(), b.termLength) < 0) min = i;
      }
      if (min < 0) break;
      const term = streams[min]!.cursor!.termCopy();
      // Decode every source's list for this term, remapped to new local numbers.
      parts.length = 0;
      from.length = 0;
      let total = 0;
      for (let i = 0; i < k; i++) {
        if (!live[i]) continue;
        const st = streams[i]!;
        const c = st.cursor!;
        if (compareBytes(c.term(), c.termLength, term, term.length) !== 0) continue;
        const df = c.df;
        from.push([i, c.ord]);
        if (docs.length < total + df) {
          const size = Math.max(docs.length * 2, total + df);
          const nd = new Int32Array(size);
          nd.set(docs.subarray(0, total));
          docs = nd;
          const nt = new Int32Array(size);
          nt.set(tfs.subarray(0, total));
          tfs = nt;
        }
        decodePostings(st.postings(), df, docs.subarray(total), tfs.subarray(total));
        const map = newLocal[i]!;
        let kept = total;
        for (let j = total; j < total + df; j++) {
          const nl = map[docs[j]!]!;
          if (nl < 0) continue; // tombstoned
          docs[kept] = nl;
          tfs[kept] = tfs[j]!;
          kept++;
        }
        if (kept > total) parts.push({ start: total, end: kept });
        total = kept;
        live[i] = st.next();
      }
      if (total === 0) continue; // every posting was tombstoned
      if (outDocs.length < total) {
        outDocs = new Int32Array(Math.max(outDocs.length * 2, total));
        outTfs = new Int32Array(outDocs.length);
      }
      // k-way merge of the (individually sorted, disjoint) runs.
      const cursor = parts.map((p) => p.start);
      for (let o = 0; o < total; o++) {
        let best = -1;
        let bestDoc = Infinity;
        for (let p = 0; p < parts.length; p++) {
          const c = cursor[p]!;
          if (c < parts[p]!.end && docs[c]! < bestDoc) {
            bestDoc = docs[c]!;
            best = p;
          }
        }
        const c = cursor[best]!++;
        outDocs[o] = bestDoc;
        outTfs[o] = tfs[c]!;
      }
      const ord = w.addTerm(term, outDocs, outTfs, total);
      for (const [src, old] of from) ordMaps[src]![old] = ord;
    }
    return ordMaps;
  }
}
