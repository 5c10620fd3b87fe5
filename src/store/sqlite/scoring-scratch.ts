/**
 * The working memory of scoring one query: MaxScore's window accumulator
 * (postings-query.ts `scoreWindows`), each posting cursor's decoded block,
 * and the sums of an exhaustive pass over a small document set
 * (`scoreExhaustive`). It is lent to one query at a time and comes back
 * clean, because allocating it per query is not free: the 32 KiB accumulator
 * is a buffer outside the JavaScript heap, and making one per search cost a
 * first-time SQLite search about 4 % (bench/results/sqlite-before-after.md,
 * session 8); so are a cursor's two block arrays, one pair per query term and
 * segment.
 */
import { BLOCK_SIZE } from "./postings-codec.js";

/** Documents per window of MaxScore's window-at-a-time scoring. */
export const WINDOW = 4096;

/** One posting cursor's decoded block: documents and term frequencies. */
export interface BlockBuffers {
  docs: Int32Array;
  tfs: Int32Array;
}

export class ScoringScratch {
  /** A window document's partial score; valid only where its bit is set. */
  readonly acc = new Float64Array(WINDOW);
  /** One bit per window document that has a partial score; all clear between windows. */
  readonly bits = new Int32Array(WINDOW / 32);
  /** Indexes of the non-zero words of `bits`. */
  readonly words = new Int32Array(WINDOW / 32);
  private sums = new Float64Array(0);
  private seen = new Uint8Array(0);
  private readonly blocks: BlockBuffers[] = [];

  /** The i-th cursor's block buffers; a segment's cursors take 0, 1, 2, … and the next segment's reuse them. */
  block(i: number): BlockBuffers {
    while (this.blocks.length <= i) this.blocks.push({ docs: new Int32Array(BLOCK_SIZE), tfs: new Int32Array(BLOCK_SIZE) });
    return this.blocks[i]!;
  }

  /**
   * Zeroed per-document sums and seen flags for `n` documents. The caller
   * zeroes again every entry it set before it returns.
   */
  exhaustive(n: number): { sums: Float64Array; seen: Uint8Array } {
    if (this.sums.length < n) {
      this.sums = new Float64Array(n);
      this.seen = new Uint8Array(n);
    }
    return { sums: this.sums, seen: this.seen };
  }
}

/** Scratches waiting for their next query: one per query scored at the same time, up to a few. */
const idle: ScoringScratch[] = [];
const MAX_IDLE = 4;

/**
 * Run the synchronous `score` with a scratch no other query is using. It is
 * taken back only when `score` returns: a throw can leave bits set.
 */
export function withScoringScratch<T>(score: (scratch: ScoringScratch) => T): T {
  const scratch = idle.pop() ?? new ScoringScratch();
  const out = score(scratch);
  if (idle.length < MAX_IDLE) idle.push(scratch);
  return out;
}
