/**
 * The order of hits with equal scores, the same in every store and in hybrid
 * fusion: by the chunk's text hash, its span, its document's path within what
 * was ingested (`rel_path`, else the source), then its id. A chunk id derives
 * from the source's absolute path, so ordering ties by id put them in another
 * order when the same files sat in another folder (`grk eval` in a checkout
 * elsewhere, or a `--beir` run's fresh temporary folder). None of the keys
 * before the id moves with the folder, and, like the id, they survive a
 * re-ingest (row ids do not). The path is there for copies of one text in
 * several files.
 */
import { compareCodeUnits } from "../core/text.js";
import type { StoredChunk } from "./store.js";

type Ordered = Pick<StoredChunk, "text_hash" | "start_offset" | "end_offset" | "chunk_id"> & {
  document: Pick<StoredChunk["document"], "source" | "metadata">;
};

/** A document's path as filters see it: relative to the folder it was ingested from, else its source. */
function pathOf(c: Ordered): string {
  const rel = c.document.metadata.rel_path;
  return typeof rel === "string" ? rel : c.document.source;
}

/** Equal-score order of two chunks: text hash, start, end, document path, then chunk id. */
export function compareTied(a: Ordered, b: Ordered): number {
  return (
    compareCodeUnits(a.text_hash, b.text_hash) ||
    a.start_offset - b.start_offset ||
    a.end_offset - b.end_offset ||
    compareCodeUnits(pathOf(a), pathOf(b)) ||
    compareCodeUnits(a.chunk_id, b.chunk_id)
  );
}

/** Best score first, ties by {@link compareTied}. */
export function byScoreThenTie(a: Ordered & { score: number }, b: Ordered & { score: number }): number {
  return b.score - a.score || compareTied(a, b);
}

/**
 * A string whose code-unit order is {@link compareTied}'s (text hashes have one
 * length, offsets are padded, a path holds no NUL), unique per chunk: the id a
 * chunk is fused under, since fusion breaks equal scores by id.
 */
export function tieKey(c: Ordered): string {
  return `${c.text_hash}:${pad(c.start_offset)}:${pad(c.end_offset)}:${pathOf(c)}\0${c.chunk_id}`;
}

function pad(n: number): string {
  return String(n).padStart(12, "0");
}
