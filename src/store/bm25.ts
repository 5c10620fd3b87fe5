/**
 * The backend-neutral half of BM25 (Lucene/Anserini formulation): how a
 * document's tokens become term counts, how query terms are counted, and the
 * weights every backend scores with. Each store keeps its own postings, but
 * they all score `w * tf / (tf + normA + normB * dl)` summed over the query's
 * terms with the numbers from here, so a collection ranks the same on SQLite
 * and on PostgreSQL (to rounding in the summation order).
 */
import { GroundkitError } from "../core/errors.js";

/** Term-frequency saturation and length normalisation (Anserini's BEIR setting). */
export const BM25_DEFAULTS = { k1: 0.9, b: 0.4 } as const;

/** Refuse BM25 parameters outside their ranges. */
export function checkParams(k1: number, b: number): void {
  if (!Number.isFinite(k1) || k1 < 0) {
    throw new GroundkitError("INVALID_ARGUMENT", `BM25 k1 must be a finite number >= 0 (got ${k1}).`);
  }
  if (!Number.isFinite(b) || b < 0 || b > 1) {
    throw new GroundkitError("INVALID_ARGUMENT", `BM25 b must be between 0 and 1 (got ${b}).`);
  }
}

const SURROGATE = /[\ud800-\udfff]/;
const UNPAIRED = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The term with unpaired surrogates replaced by U+FFFD, as UTF-8 (and so
 * SQLite and PostgreSQL TEXT) would store it; applied to index and query terms alike.
 */
export function wellFormedTerm(term: string): string {
  return SURROGATE.test(term) ? term.replace(UNPAIRED, "\ufffd") : term;
}

/**
 * A document's distinct terms and their frequencies, from its token stream
 * (its length is the document length). Tokens must be non-empty and free of
 * NUL, which no backend's TEXT holds; unpaired surrogates count as U+FFFD.
 */
export function countTerms(tokens: readonly string[]): { terms: string[]; tfs: number[] } {
  let tf = new Map<string, number>();
  let surrogates = false;
  for (const t of tokens) {
    if (typeof t !== "string" || t.length === 0 || t.includes("\0")) {
      throw new GroundkitError("INTERNAL", "BM25 postings: tokens must be non-empty strings without NUL characters.");
    }
    if (!surrogates && SURROGATE.test(t)) surrogates = true;
    tf.set(t, (tf.get(t) ?? 0) + 1);
  }
  if (surrogates) {
    // Rare: stored as U+FFFD, as search looks them up (and UTF-8 can hold them).
    const fixed = new Map<string, number>();
    for (const [t, n] of tf) fixed.set(wellFormedTerm(t), (fixed.get(wellFormedTerm(t)) ?? 0) + n);
    tf = fixed;
  }
  return { terms: [...tf.keys()], tfs: [...tf.values()] };
}

/** A query's distinct terms and how often each was given: a term given n times weighs n times. Empty strings are ignored. */
export function countQueryTerms(terms: readonly string[]): { terms: string[]; qtfs: number[] } {
  const qtf = new Map<string, number>();
  for (const term of terms) {
    if (typeof term !== "string" || term === "") continue;
    const t = wellFormedTerm(term);
    qtf.set(t, (qtf.get(t) ?? 0) + 1);
  }
  return { terms: [...qtf.keys()], qtfs: [...qtf.values()] };
}

/** BM25 parameters resolved for one query: k1 * (1 - b + b * dl / avgdl) = normA + normB * dl. */
export interface Bm25Params {
  k1: number;
  normA: number;
  normB: number;
}

/** The length normalisation for a collection of `docs` live documents totalling `totalLength` tokens. */
export function bm25Params(k1: number, b: number, docs: number, totalLength: number): Bm25Params {
  const avgdl = totalLength / docs;
  return { k1, normA: k1 * (1 - b), normB: avgdl > 0 ? (k1 * b) / avgdl : 0 };
}

/** Each query term's idf, times its query term frequency (0 for a term in no document): idf = ln(1 + (N - df + 0.5) / (df + 0.5)). */
export function queryIdfs(docs: number, dfs: readonly number[], qtfs: readonly number[]): number[] {
  return dfs.map((df, t) => (df > 0 ? qtfs[t]! * Math.log(1 + (docs - df + 0.5) / (df + 0.5)) : 0));
}
