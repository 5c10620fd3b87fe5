/**
 * In-process search latency of several collections measured side by side:
 * each query runs on every collection back to back, the order rotating from
 * one query to the next. A shared VM's speed drifts by tens of percent within
 * minutes (bench/results/sqlite-before-after.md, "Session 5"), so timing one
 * store after the other compares two different machines; alternating per
 * query puts the drift on both alike (as scripts/bm25-paired.mjs does for two
 * builds).
 */
import { percentileOf } from "../test/support/serve-load.js";

/** p50/p99 in milliseconds over a pass. */
export interface LatencyFigures {
  p50: number;
  p99: number;
}

/** What one collection needs to offer: a top-10 search by query text. */
export type Searcher = (query: string) => Promise<unknown>;

/** Time each query of `queries` on every searcher (rotating which goes first); per searcher, p50/p99 ms (unrounded). */
export async function pairedLatency<K extends string>(searchers: Record<K, Searcher>, queries: readonly string[]): Promise<Record<K, LatencyFigures>> {
  const keys = Object.keys(searchers) as K[];
  const times = new Map<K, number[]>(keys.map((k) => [k, []]));
  for (const [i, q] of queries.entries()) {
    for (let j = 0; j < keys.length; j++) {
      const k = keys[(i + j) % keys.length]!;
      const t = performance.now();
      await searchers[k](q);
      times.get(k)!.push(performance.now() - t);
    }
  }
  const out = {} as Record<K, LatencyFigures>;
  for (const k of keys) {
    const sorted = times.get(k)!.sort((a, b) => a - b);
    out[k] = { p50: percentileOf(sorted, 50), p99: percentileOf(sorted, 99) };
  }
  return out;
}
