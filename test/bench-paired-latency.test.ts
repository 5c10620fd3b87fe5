/**
 * bench/paired-latency.ts: every query runs on every searcher, back to back,
 * the first one rotating from query to query (so a machine's drift weighs on
 * each alike). No assertion on any timing's value.
 */
import { describe, expect, it } from "vitest";
import { pairedLatency } from "../bench/paired-latency.js";

describe("pairedLatency", () => {
  it("runs each query on every searcher in turn, rotating which goes first, and reports p50 <= p99 per searcher", async () => {
    const calls: string[] = [];
    const searcher = (name: string) => async (q: string) => void calls.push(`${name}:${q}`);
    const figures = await pairedLatency({ a: searcher("a"), b: searcher("b"), c: searcher("c") }, ["q1", "q2", "q3", "q4"]);
    expect(calls).toEqual(["a:q1", "b:q1", "c:q1", "b:q2", "c:q2", "a:q2", "c:q3", "a:q3", "b:q3", "a:q4", "b:q4", "c:q4"]);
    expect(Object.keys(figures).sort()).toEqual(["a", "b", "c"]);
    for (const f of Object.values(figures)) {
      expect(Number.isFinite(f.p50)).toBe(true);
      expect(f.p50).toBeLessThanOrEqual(f.p99);
    }
  });

  it("gives no figures for no queries rather than failing", async () => {
    const figures = await pairedLatency({ a: async () => undefined }, []);
    expect(figures).toEqual({ a: { p50: 0, p99: 0 } });
  });
});
