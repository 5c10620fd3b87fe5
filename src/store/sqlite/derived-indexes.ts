/**
 * The derived structures of a collection file: everything that can be rebuilt
 * from its document and chunk rows. `grk doctor` asks each whether it is
 * current, and `--repair` rebuilds the ones that are not (under the writer
 * lock). A new derived structure (an ANN vector index, say) joins by adding
 * an entry to {@link DERIVED_INDEXES}.
 */
import type { Db } from "./db.js";
import { diffPostings, rebuildPostings } from "./postings-health.js";

/** Whether a derived structure reflects the rows it is derived from. */
export interface DerivedIndexState {
  current: boolean;
  /** What was found, in a sentence (counts, the generation it reflects…). */
  detail: string;
}

export interface DerivedIndex {
  /** Short name shown by doctor (`postings`). */
  name: string;
  /** What it is, for people (`BM25 postings segments`). */
  description: string;
  /** Compare it with the rows; read-only. */
  check(db: Db): DerivedIndexState;
  /** Rebuild it from the rows in its own transaction; returns what was done, in a sentence. */
  rebuild(db: Db): string;
}

const postings: DerivedIndex = {
  name: "postings",
  description: "BM25 postings segments",
  check(db) {
    const d = diffPostings(db);
    if (d.absent) return { current: false, detail: `the BM25 postings tables are missing (${d.missing} chunks unindexed)` };
    const wrong = [
      d.missing > 0 ? `${d.missing} chunk(s) not indexed` : "",
      d.extra > 0 ? `${d.extra} indexed row(s) that are no chunk` : "",
      d.countMismatch ? "the document count in bm25_state disagrees with the segments" : "",
    ].filter(Boolean);
    return wrong.length === 0 ? { current: true, detail: "every chunk indexed, nothing else" } : { current: false, detail: wrong.join("; ") };
  },
  rebuild(db) {
    return `rebuilt the BM25 postings from ${rebuildPostings(db)} chunk(s)`;
  },
};

/** Every derived structure doctor checks, in order. */
export const DERIVED_INDEXES: readonly DerivedIndex[] = [postings];
