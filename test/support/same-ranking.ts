/**
 * The BM25 parity rule between two engines: the same top k with scores equal
 * to 1e-9, rank by rank. Two chunks may trade places only when their scores
 * agree to 1e-9 (rounding in the summation order decides between them), and at
 * the cut-off a chunk may differ only for one of the same score.
 */
import { expect } from "vitest";

export type Ranked = { chunk_id: string; score: number };

/** Scores closer than this are the same score (the engines sum a query's terms in different orders). */
export const SAME_SCORE = 1e-9;

export function expectSameRanking(x: Ranked[], y: Ranked[], q: string): void {
  expect(y.length, q).toBe(x.length);
  for (let i = 0; i < x.length; i++) {
    expect(Math.abs(y[i]!.score - x[i]!.score), q).toBeLessThanOrEqual(SAME_SCORE);
    if (y[i]!.chunk_id === x[i]!.chunk_id) continue;
    const j = y.findIndex((h) => h.chunk_id === x[i]!.chunk_id);
    const other = j >= 0 ? y[j]!.score : y[y.length - 1]!.score;
    expect(Math.abs(other - x[i]!.score), `${q}: ${x[i]!.chunk_id} moved past a different score`).toBeLessThanOrEqual(SAME_SCORE);
  }
}
