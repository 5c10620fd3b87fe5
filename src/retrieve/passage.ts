/**
 * The passage of a hit: the window of its chunk that best shows why it
 * matched, with the query's terms marked. Terms come from the BM25 analyzer
 * (`analysis/`), so a marked word is one BM25 matched, stems included
 * ("running" is marked for the query "run"). Backend-neutral: it needs only
 * the chunk text and the query.
 *
 * How the window is chosen (docs/decisions/0015-matched-passages.md): among
 * windows of at most `maxChars` code points, the one holding the most
 * distinct query terms, then the most occurrences, then the earliest; it is
 * widened around its terms and snapped to a line or sentence start and to
 * word ends. A chunk holding no query term (a dense-only hit, or a match
 * only in the heading) gets its start, and says so: `basis: "chunk_start"`.
 */
import { analyzeQuery, analyzeWithOffsets, type TermOccurrence } from "../analysis/analyzer.js";
import type { MatchedPassage } from "../core/contracts.js";
import { CodePointText } from "../core/text.js";

/** Default passage length in code points (what a result line shows). */
export const DEFAULT_PASSAGE_CHARS = 240;

/** The terms a query marks: its analyzed terms, deduplicated. */
export function queryMarkTerms(query: string): ReadonlySet<string> {
  return new Set(analyzeQuery(query));
}

/** A window of UTF-16 offsets [start, end) into the chunk text. */
interface Window {
  start: number;
  end: number;
}

/**
 * The best passage of a chunk for a query, offsets in code points of the
 * source document (`chunkStartOffset` is the chunk's own start there).
 *
 * @example
 *   bestPassage("Intro.\n\nRunning the restore job", queryMarkTerms("run restore"), 0, 40)
 *   // { text: "Running the restore job", start_offset: 8, …, terms: [{ term: "run", … }, { term: "restor", … }], basis: "query_terms" }
 */
export function bestPassage(
  chunkText: string,
  terms: ReadonlySet<string>,
  chunkStartOffset: number,
  maxChars: number = DEFAULT_PASSAGE_CHARS,
): MatchedPassage {
  const limit = Math.max(1, Math.floor(maxChars));
  const found = terms.size === 0 ? [] : analyzeWithOffsets(chunkText, terms);
  const window = found.length > 0 ? aroundTerms(chunkText, found, limit) : chunkStart(chunkText, limit);
  const inside = found.filter((o) => o.start >= window.start && o.end <= window.end);
  const cp = new CodePointText(chunkText);
  const at = (u: number) => chunkStartOffset + cp.toCodePoint(u);
  return {
    text: chunkText.slice(window.start, window.end),
    start_offset: at(window.start),
    end_offset: at(window.end),
    terms: inside.map((o) => ({ term: o.term, start_offset: at(o.start), end_offset: at(o.end) })),
    basis: inside.length > 0 ? "query_terms" : "chunk_start",
  };
}

/** Most distinct terms, then most occurrences, then earliest; then widened and snapped. */
function aroundTerms(text: string, found: TermOccurrence[], limit: number): Window {
  let best = { i: 0, j: 0, distinct: 0, count: 0 };
  const counts = new Map<string, number>();
  let j = 0;
  for (let i = 0; i < found.length; i++) {
    // Grow the window [i, j) while it fits; a lone term longer than the limit still counts once.
    while (j < found.length && (j === i || found[j]!.end - found[i]!.start <= limit)) {
      counts.set(found[j]!.term, (counts.get(found[j]!.term) ?? 0) + 1);
      j++;
    }
    const count = j - i;
    if (counts.size > best.distinct || (counts.size === best.distinct && count > best.count)) {
      best = { i, j, distinct: counts.size, count };
    }
    const left = found[i]!.term;
    const n = counts.get(left)! - 1;
    if (n === 0) counts.delete(left);
    else counts.set(left, n);
  }
  const core = { start: found[best.i]!.start, end: found[best.j - 1]!.end };
  return widen(text, core, limit);
}

// From the start through the last line break or sentence end (the greedy prefix backs off to the last one).
const UP_TO_LAST_BREAK = /^[^]*(?:\n|[.!?]\s)/;

/** Grow `core` to about `limit` units: a third of the room before it, the rest after; snapped to boundaries. */
function widen(text: string, core: Window, limit: number): Window {
  const room = Math.max(0, limit - (core.end - core.start));
  let start = Math.max(0, core.start - Math.floor(room / 3));
  let end = Math.min(text.length, start + Math.max(limit, core.end - core.start));
  // Room left at the end of the chunk goes before the terms instead.
  start = Math.max(0, Math.min(start, end - limit));
  // Begin at a line or sentence start inside the lead-in when there is one, else at a word start.
  const lead = text.slice(start, core.start);
  const throughLastBreak = UP_TO_LAST_BREAK.exec(lead);
  if (throughLastBreak) start += throughLastBreak[0].length;
  else if (start > 0 && /\S/.test(text[start - 1]!)) {
    const space = lead.search(/\s/);
    if (space >= 0) start += space + 1;
  }
  // End at a word end, never inside the last term.
  if (end < text.length && /\S/.test(text[end]!)) {
    const tail = text.slice(core.end, end);
    const space = tail.search(/\s\S*$/);
    if (space >= 0) end = core.end + space;
  }
  return trim(text, { start: Math.min(start, core.start), end: Math.max(end, core.end) });
}

/** The chunk's first `limit` units, ending at a word end. */
function chunkStart(text: string, limit: number): Window {
  let end = Math.min(text.length, limit);
  if (end < text.length && /\S/.test(text[end]!)) {
    const space = text.slice(0, end).search(/\s\S*$/);
    if (space > 0) end = space;
  }
  return trim(text, { start: 0, end });
}

/** True when offset i falls between the two halves of a surrogate pair. */
function splitsPair(text: string, i: number): boolean {
  return i > 0 && i < text.length && /[\udc00-\udfff]/.test(text[i]!) && /[\ud800-\udbff]/.test(text[i - 1]!);
}

/** Drop whitespace at both ends; never split a surrogate pair. */
function trim(text: string, w: Window): Window {
  let { start, end } = w;
  if (splitsPair(text, start)) start++;
  if (splitsPair(text, end)) end--;
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}
