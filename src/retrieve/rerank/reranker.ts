/**
 * The cross-encoder interface: score (query, passage) pairs jointly, which is
 * slower than comparing embeddings but far more precise, so it reorders only
 * the top candidates of a first-stage search.
 */
import { GroundkitError } from "../../core/errors.js";

/**
 * Scores passages against a query. Scores are sigmoid-normalized to 0..1
 * (higher is more relevant), one per passage in input order.
 *
 * @example
 *   const reranker = await createReranker({ provider: "onnx", model_dir: "./models/ms-marco-MiniLM-L-6-v2" });
 *   const scores = await reranker.rerank("how are citations verified?", passages.map((p) => p.text));
 */
export interface Reranker {
  /** Names the model (and its file hash or endpoint) for reports, e.g. `onnx:ms-marco-MiniLM-L-6-v2@1a2b3c4d5e6f`. */
  readonly identity: string;
  rerank(query: string, passages: string[]): Promise<number[]>;
  /** Release sessions or sockets. Safe to call twice. */
  close?(): Promise<void>;
}

/** The logistic function, written to stay finite for large |x|. */
export function sigmoid(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

/**
 * Check a model's or server's scores: one finite number in [0, 1] per passage.
 *
 * @throws GroundkitError RERANK_FAILED naming `source`
 */
export function checkScores(scores: unknown[], count: number, source: string): number[] {
  if (scores.length !== count) {
    throw new GroundkitError("RERANK_FAILED", `${source} returned ${scores.length} scores for ${count} passages.`, {
      source,
    });
  }
  return scores.map((s, i) => {
    if (typeof s !== "number" || !Number.isFinite(s) || s < 0 || s > 1) {
      throw new GroundkitError(
        "RERANK_FAILED",
        `${source} returned an invalid score for passage ${i} (scores must be finite and within 0..1).`,
        { source, index: i },
      );
    }
    return s;
  });
}
