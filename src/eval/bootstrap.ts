/**
 * Paired bootstrap confidence interval for the mean per-query difference between two systems
 * scored on the same queries. Deterministic: a fixed-seed PRNG, so the same inputs always give
 * the same interval and verdict.
 */
import { mulberry32 } from "../core/random.js";

/** Default number of resamples. */
export const BOOTSTRAP_RESAMPLES = 10_000;
/** Default PRNG seed. */
export const BOOTSTRAP_SEED = 42;

/** better: the CI lies entirely above 0; worse: entirely below; otherwise indistinguishable. */
export type Verdict = "better" | "worse" | "indistinguishable";

/** The delta of one metric with its confidence interval. */
export interface DeltaCI {
  /** Mean of the per-query deltas (stage − baseline). */
  mean: number;
  ci_low: number;
  ci_high: number;
  verdict: Verdict;
}

/** Options for {@link pairedBootstrap}. */
export interface BootstrapOptions {
  resamples?: number;
  seed?: number;
  /** Two-sided confidence level, default 0.95. */
  confidence?: number;
}

/**
 * Paired bootstrap of the mean per-query delta `stage[i] − baseline[i]`: draw `resamples` samples
 * of n query indexes with replacement, take each sample's mean delta, and report the percentile
 * interval (for 95% and 10,000 resamples: the 251st and 9,750th smallest of the sorted means, so
 * 250 means lie outside on each side). Higher metric values are assumed better.
 *
 * @example
 *   pairedBootstrap([1, 1, 1, 0], [0, 0, 0, 0]).verdict // "better"
 */
export function pairedBootstrap(
  stage: readonly number[],
  baseline: readonly number[],
  options: BootstrapOptions = {},
): DeltaCI {
  if (stage.length !== baseline.length) {
    throw new RangeError(`paired bootstrap needs equal-length samples (${stage.length} vs ${baseline.length})`);
  }
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const confidence = options.confidence ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError("resamples must be a positive integer");
  if (!(confidence > 0 && confidence < 1)) throw new RangeError("confidence must lie in (0, 1)");
  const n = stage.length;
  const deltas = stage.map((s, i) => s - baseline[i]!);
  let total = 0;
  for (const d of deltas) total += d;
  const observed = n === 0 ? 0 : total / n;
  if (n === 0) return { mean: 0, ci_low: 0, ci_high: 0, verdict: "indistinguishable" };

  const rand = mulberry32(options.seed ?? BOOTSTRAP_SEED);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += deltas[Math.floor(rand() * n)]!;
    means[r] = s / n;
  }
  means.sort();
  const alpha = (1 - confidence) / 2;
  const lowIdx = Math.min(resamples - 1, Math.floor(alpha * resamples));
  const highIdx = Math.max(0, Math.ceil((1 - alpha) * resamples) - 1);
  const ci_low = means[lowIdx]!;
  const ci_high = means[highIdx]!;
  const verdict: Verdict = ci_low > 0 ? "better" : ci_high < 0 ? "worse" : "indistinguishable";
  return { mean: observed, ci_low, ci_high, verdict };
}
