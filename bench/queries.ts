/**
 * The benchmark's query mix, deterministic for a given seed and corpus size.
 *
 * Classes (reported separately, because their costs differ by orders of magnitude):
 * - `short`: 1–8 terms, lengths weighted like real search logs (most queries are
 *   2–3 terms); each term is either drawn from the corpus's Zipf distribution (so
 *   mostly common words) or uniformly from the long tail (rare words, some absent
 *   from a small corpus, so BM25 must abstain);
 * - `long12`: 12 Zipf-drawn terms, a typed question's worth — every document
 *   matches some of them, the hard case for BM25;
 * - `paragraph`: a paragraph pasted from a corpus document (40–80 words).
 */
import { generateDocument, mulberry32, paragraph, vocabulary } from "./corpus.js";

/** A query class. */
export type QueryClass = "short" | "long12" | "paragraph";

/** All classes, in report order. */
export const QUERY_CLASSES: readonly QueryClass[] = ["short", "long12", "paragraph"];

/** One benchmark query. */
export interface BenchQuery {
  cls: QueryClass;
  text: string;
  /** Terms in the query (words, before analysis). */
  terms: number;
}

/** How many queries of each class. */
export interface QueryCounts {
  short: number;
  long12: number;
  paragraph: number;
}

/** Query length weights for 1..8 terms (search-log shaped). */
const LENGTH_WEIGHTS = [0.18, 0.26, 0.2, 0.13, 0.09, 0.06, 0.045, 0.035];

/** Vocabulary ranks from here on count as "rare". */
export const RARE_FROM_RANK = 1000;

function termCount(rand: () => number): number {
  let u = rand();
  for (let i = 0; i < LENGTH_WEIGHTS.length; i++) {
    u -= LENGTH_WEIGHTS[i]!;
    if (u < 0) return i + 1;
  }
  return LENGTH_WEIGHTS.length;
}

/**
 * Build the query set. `documents` bounds which documents a pasted paragraph
 * comes from (so it exists in the corpus).
 */
export function buildQueries(counts: QueryCounts, documents: number, seed = 7): BenchQuery[] {
  const v = vocabulary();
  const rand = mulberry32(seed);
  const out: BenchQuery[] = [];
  for (let q = 0; q < counts.short; q++) {
    const n = termCount(rand);
    const terms: string[] = [];
    for (let t = 0; t < n; t++) {
      // 60% from the corpus distribution (mostly common words), 40% from the rare tail.
      const word =
        rand() < 0.6 ? v.sample(rand) : v.words[RARE_FROM_RANK + Math.floor(rand() * (v.words.length - RARE_FROM_RANK))]!;
      terms.push(word);
    }
    out.push({ cls: "short", text: terms.join(" "), terms: n });
  }
  for (let q = 0; q < counts.long12; q++) {
    const terms: string[] = [];
    for (let t = 0; t < 12; t++) terms.push(v.sample(rand));
    out.push({ cls: "long12", text: terms.join(" ") + "?", terms: 12 });
  }
  for (let q = 0; q < counts.paragraph; q++) {
    const doc = Math.floor(rand() * Math.max(1, documents));
    const text = pastedParagraph(doc, rand);
    out.push({ cls: "paragraph", text, terms: text.split(/\s+/).length });
  }
  return out;
}

/**
 * 40–80 words of prose: the longest paragraph of document `doc`, topped up with
 * a generated paragraph when the document is short (a user pastes whatever
 * passage they have).
 */
function pastedParagraph(doc: number, rand: () => number): string {
  const paras = generateDocument(doc)
    .split("\n\n")
    .filter((p) => !/^(#|```|-|\d+\.|>|---)/.test(p))
    .sort((a, b) => b.length - a.length);
  let words = (paras[0] ?? "").split(/\s+/).filter(Boolean);
  const want = 40 + Math.floor(rand() * 41);
  const filler = mulberry32(doc + 99);
  while (words.length < want) words = words.concat(paragraph(vocabulary(), filler).split(/\s+/));
  return words.slice(0, want).join(" ");
}
