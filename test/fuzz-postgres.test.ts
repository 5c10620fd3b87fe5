/**
 * The reliability tools against the PostgreSQL store, bounded for `npm test`
 * (the full runs are `npm run fuzz -- --store postgres` and `npm run torture
 * -- --store postgres`; see docs/reliability.md): each starts its own
 * throwaway PostgreSQL cluster on 127.0.0.1.
 */
import { describe, expect, it } from "vitest";
import { runFuzz } from "../fuzz/fuzz.js";
import { runTorture } from "../fuzz/torture.js";

describe("reliability tools on PostgreSQL (bounded)", () => {
  it("fuzz: every verdict as the oracle expects, collections in PostgreSQL", async () => {
    const report = await runFuzz({ cases: 34, seed: 11, store: "postgres", shrink: false });
    expect(report.store).toBe("postgres");
    expect(report.failures.cases).toEqual([]);
    expect(report.citations).toBeGreaterThan(34);
    expect(report.ok).toBe(true);
  }, 300_000);

  it("torture: SIGKILLed ingests leave every document whole, postings, stats and generation consistent, and the next ingest converges", async () => {
    // Small: every round on PostgreSQL pays CLI starts, schema reads and two reference runs' worth of worker threads.
    const report = await runTorture({ kills: 4, seed: 7, store: "postgres", corpus: { small: 12, big: 1, bigBytes: 100_000 } });
    expect(report.store).toBe("postgres");
    expect(report.violations).toEqual([]);
    expect(report.kills).toBe(4);
    expect(report.converged).toBe(report.recoveries);
    expect(report.generation_checks).toBeGreaterThan(4);
    expect(report.structures_checked).toContain("pg-postings");
    expect(report.ok).toBe(true);
  }, 900_000);
});
