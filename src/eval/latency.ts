/**
 * Latency sampling and percentiles.
 *
 * Percentiles use the **nearest-rank** method: the p-th percentile of n sorted samples is the
 * sample at 1-based rank ⌈p/100 · n⌉ (rank 1 for p = 0). It always returns an observed value,
 * never an interpolation between two runs.
 */
import { performance } from "node:perf_hooks";

/**
 * Nearest-rank percentile of `samples` (any order); `p` in [0, 100]. Throws on an empty list.
 *
 * @example
 *   percentile([15, 20, 35, 40, 50], 40) // 20  (rank ⌈0.4·5⌉ = 2)
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new RangeError("percentile of an empty sample");
  if (!(p >= 0 && p <= 100)) throw new RangeError("p must lie in [0, 100]");
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** p50 / p95 / p99 in milliseconds; null when there are no samples. */
export interface LatencySummary {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  samples: number;
}

/** Summarize millisecond samples. */
export function summarizeLatency(samplesMs: readonly number[]): LatencySummary {
  if (samplesMs.length === 0) return { p50_ms: null, p95_ms: null, p99_ms: null, samples: 0 };
  return {
    p50_ms: percentile(samplesMs, 50),
    p95_ms: percentile(samplesMs, 95),
    p99_ms: percentile(samplesMs, 99),
    samples: samplesMs.length,
  };
}

/** Options for {@link timeRuns}. */
export interface TimeRunsOptions {
  /** Untimed calls first (JIT, caches, page cache). */
  warmup: number;
  /** Timed calls. */
  runs: number;
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number;
}

/**
 * Call `fn` `warmup` times untimed, then `runs` times timed; returns each timed call's duration in ms.
 *
 * @example
 *   const ms = await timeRuns(() => collection.search("tls"), { warmup: 2, runs: 20 });
 *   summarizeLatency(ms).p95_ms
 */
export async function timeRuns(fn: () => unknown, options: TimeRunsOptions): Promise<number[]> {
  const { warmup, runs } = options;
  if (!Number.isInteger(warmup) || warmup < 0) throw new RangeError("warmup must be a non-negative integer");
  if (!Number.isInteger(runs) || runs < 0) throw new RangeError("runs must be a non-negative integer");
  const now = options.now ?? (() => performance.now());
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = now();
    await fn();
    out.push(now() - t0);
  }
  return out;
}
