/**
 * The pending documents (bm25_pending rows, not yet in a segment) inverted
 * into per-term postings: a flush writes them as a segment, a query scores
 * them directly. Rows already parsed are remembered (written by this index's
 * `add`, or read before), so flushes and re-reads after other writes do not
 * parse them again; a memo is used only when the stored text is identical,
 * so rolled-back or foreign rows can never be mistaken for it.
 */
import { parseCounts, type PendingRow, type TermCounts } from "./postings-format.js";

/** Pending documents inverted: postings of term id t are docs/tfs[start[t] .. start[t + 1]). */
export interface PendingView {
  rowids: Float64Array;
  dls: Int32Array;
  terms: string[];
  termIds: Map<string, number>;
  start: Int32Array;
  docs: Int32Array;
  tfs: Int32Array;
  /** Term ids of document i: docTerms[docStart[i] .. docStart[i + 1]). */
  docStart: Int32Array;
  docTerms: Int32Array;
}

export class PendingRows {
  private readonly parsed = new Map<number, TermCounts>();

  /** `flushThreshold`: the pending rows that make a segment (bounds the memo). */
  constructor(private readonly flushThreshold: number) {}

  remember(rowid: number, counts: TermCounts): void {
    // Bounded: rolled-back rows and rows flushed by another process linger until cleared.
    if (this.parsed.size > 2 * this.flushThreshold + 64) this.parsed.clear();
    this.parsed.set(rowid, counts);
  }

  forget(rowid: number): void {
    this.parsed.delete(rowid);
  }

  /** Forget every row (they were flushed into a segment). */
  clear(): void {
    this.parsed.clear();
  }

  /** Invert pending rows (in rowid order) without per-term arrays: count, then fill. */
  invert(rows: PendingRow[]): PendingView {
    const n = rows.length;
    const rowids = new Float64Array(n);
    const dls = new Int32Array(n);
    const counts: TermCounts[] = new Array(n);
    let entries = 0;
    for (let i = 0; i < n; i++) {
      const row = rows[i]!;
      rowids[i] = row.doc;
      dls[i] = row.dl;
      const known = this.parsed.get(row.doc);
      let c: TermCounts;
      if (known !== undefined && known.data === row.data) {
        c = known;
      } else {
        c = parseCounts(row.data);
        this.remember(row.doc, c);
      }
      counts[i] = c;
      entries += c.terms.length;
    }
    const termIds = new Map<string, number>();
    const terms: string[] = [];
    const docStart = new Int32Array(n + 1);
    const docTerms = new Int32Array(entries);
    const docTfs = new Int32Array(entries);
    let df = new Int32Array(1024);
    let e = 0;
    for (let i = 0; i < n; i++) {
      const c = counts[i]!;
      for (let j = 0; j < c.terms.length; j++) {
        const term = c.terms[j]!;
        let id = termIds.get(term);
        if (id === undefined) {
          id = terms.length;
          termIds.set(term, id);
          terms.push(term);
          if (id >= df.length) {
            const bigger = new Int32Array(df.length * 2);
            bigger.set(df);
            df = bigger;
          }
        }
        df[id]!++;
        docTerms[e] = id;
        docTfs[e] = c.tfs[j]!;
        e++;
      }
      docStart[i + 1] = e;
    }
    const start = new Int32Array(terms.length + 1);
    for (let t = 0; t < terms.length; t++) start[t + 1] = start[t]! + df[t]!;
    const fill = start.slice(0, terms.length);
    const docs = new Int32Array(entries);
    const tfs = new Int32Array(entries);
    for (let i = 0; i < n; i++) {
      for (let x = docStart[i]!; x < docStart[i + 1]!; x++) {
        const at = fill[docTerms[x]!]!++;
        docs[at] = i;
        tfs[at] = docTfs[x]!;
      }
    }
    return { rowids, dls, terms, termIds, start, docs, tfs, docStart, docTerms };
  }
}
