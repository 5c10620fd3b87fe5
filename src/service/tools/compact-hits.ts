/**
 * The compact form of search results, for agents paying per token: each hit
 * is its matched passage, its citation (what `verify_citation` takes) and its
 * score; no chunk text, no heading, no term offsets. A total budget keeps
 * the whole answer bounded: hits are kept in rank order while their passages
 * fit, the last one shortened at a word end, the rest counted as omitted.
 */
import type { Citation, SearchHit, Verification } from "../../core/contracts.js";

/** Default passage length of a compact hit, in code points. */
export const DEFAULT_COMPACT_CHARS = 400;

/** A passage shortened below this many code points is dropped rather than sent as a stub. */
export const MIN_BUDGETED_CHARS = 80;

export interface CompactHit {
  rank: number;
  /** Rounded to 4 significant digits (the ranking is already in `rank`). */
  score: number;
  chunk_id: string;
  passage: string;
  citation: Citation;
  /** Code chunks: what the chunk holds (`method Collection.search`). */
  symbol?: string | undefined;
  verdict?: Verification["verdict"] | undefined;
  /** The hit's collection, when several were searched. */
  collection?: string | undefined;
}

/**
 * Hits in compact form within a budget of passage characters (code points).
 *
 * @example
 *   compactHits(hits, 1200) // { results: [...], omitted: 3 }
 */
export function compactHits(hits: ReadonlyArray<SearchHit & { collection?: string }>, maxTotalChars?: number): { results: CompactHit[]; omitted: number } {
  const results: CompactHit[] = [];
  let left = maxTotalChars ?? Number.POSITIVE_INFINITY;
  for (const hit of hits) {
    const chars = Array.from(hit.passage.text);
    if (chars.length > left && left < MIN_BUDGETED_CHARS) break;
    const passage = chars.length <= left ? hit.passage.text : cutAtWord(chars.slice(0, left - 1).join("")) + "…";
    left -= Array.from(passage).length;
    results.push({
      rank: hit.rank,
      score: Number(hit.score.toPrecision(4)),
      chunk_id: hit.chunk_id,
      passage,
      citation: hit.citation,
      ...(hit.symbol !== undefined ? { symbol: hit.symbol } : {}),
      ...(hit.verification ? { verdict: hit.verification.verdict } : {}),
      ...(hit.collection !== undefined ? { collection: hit.collection } : {}),
    });
  }
  return { results, omitted: hits.length - results.length };
}

/** Drop a trailing partial word (when there is an earlier word end to keep). */
function cutAtWord(text: string): string {
  const end = text.search(/\s\S*$/);
  return end > 0 ? text.slice(0, end) : text;
}
