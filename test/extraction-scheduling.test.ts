/**
 * Extraction under hostile clients (issue 25 item 4, ADR 0024): work whose
 * caller left is dropped (queued) or abandoned (running, its worker replaced),
 * one client's slow file leaves a lane to the others, a client's queue is
 * bounded with a typed refusal, and the cache turns repeated checks of the same
 * bytes into one extraction, shared while it runs and cancelled only when all
 * its callers left. Real workers, real PDFs; the slow PDF (2^20 nested forms)
 * would run for minutes, so every test that finishes has cut it short.
 */
import { describe, expect, it } from "vitest";
import { ExtractionCache } from "../src/extract/extraction-cache.js";
import { createIsolatedExtractor, ExtractionPool } from "../src/extract/extraction-pool.js";
import type { ExtractedText, Extractor } from "../src/extract/extractor.js";
import { GroundkitError } from "../src/core/errors.js";
import { nestedFormsPdf } from "./support/extraction-bombs.js";
import { makePdf } from "./support/pdf-fixtures.js";

const SLOW = nestedFormsPdf(20);
/** Generous: only the slow file's own run is cut short by the tests, never by this. */
const LIMITS = { timeoutMs: 600_000 };

/** Wait (polling) until `ready` holds; the test's timeout is the hang check. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** The outcome of a promise as a value, so its settling can be watched. */
function watch<T>(p: Promise<T>): { settled: () => boolean; outcome: Promise<T | unknown> } {
  let settled = false;
  const outcome = p.then(
    (v) => ((settled = true), v),
    (e: unknown) => ((settled = true), e),
  );
  return { settled: () => settled, outcome };
}

function owner(client: string): { client: string; signal: AbortSignal; abort: () => void } {
  const controller = new AbortController();
  return { client, signal: controller.signal, abort: () => controller.abort() };
}

async function code(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => new Error("succeeded"),
    (e: unknown) => e,
  );
  return err instanceof GroundkitError ? err.code : String(err);
}

async function pdfExtractor(pool: ExtractionPool): Promise<Extractor> {
  return createIsolatedExtractor("pdf", pool);
}

describe("extraction pool scheduling", () => {
  it("drops a queued job whose caller left, abandons a running one, and extracts the next file", { timeout: 120_000 }, async () => {
    const pool = new ExtractionPool({ lanes: 1 });
    const pdf = await pdfExtractor(pool);
    const running = owner("hostile");
    const queued = owner("hostile");
    const first = pdf.extract(SLOW, undefined, { label: "slow-1.pdf", limits: LIMITS, owner: running });
    const second = pdf.extract(SLOW, undefined, { label: "slow-2.pdf", limits: LIMITS, owner: queued });
    await until(() => pool.stats().started === 1);
    queued.abort();
    expect(await code(second)).toBe("REQUEST_CANCELLED");
    running.abort();
    expect(await code(first)).toBe("REQUEST_CANCELLED");
    expect(pool.stats()).toMatchObject({ started: 1, droppedQueued: 1, abandonedRunning: 1 });
    const next = await pdf.extract(await makePdf([["after the hostile ones"]]), undefined, { label: "ok.pdf" });
    expect(next.text).toContain("after the hostile ones");
    expect(pool.stats().started).toBe(2);
  });

  it("leaves a lane to other clients while one client's slow file runs", { timeout: 120_000 }, async () => {
    const pool = new ExtractionPool({ lanes: 2 });
    const pdf = await pdfExtractor(pool);
    const hostile = [owner("10.0.0.1"), owner("10.0.0.1")];
    const slow = hostile.map((o, i) => watch(pdf.extract(SLOW, undefined, { label: `slow-${i}.pdf`, limits: LIMITS, owner: o })));
    await until(() => pool.stats().started === 1);
    const normal = await pdf.extract(await makePdf([["the normal client's file"]]), undefined, {
      label: "ok.pdf",
      owner: owner("10.0.0.2"),
    });
    expect(normal.text).toContain("the normal client's file");
    // The hostile client's second file waited for its first: it never took the other lane.
    expect(slow.map((s) => s.settled())).toEqual([false, false]);
    expect(pool.stats().started).toBe(2);
    for (const o of hostile) o.abort();
    for (const s of slow) expect(await code(s.outcome.then((v) => (v instanceof Error ? Promise.reject(v) : v)))).toBe("REQUEST_CANCELLED");
  });

  it("refuses a client's work beyond its queue bound with EXTRACTION_BUSY, other clients still queue", { timeout: 120_000 }, async () => {
    const pool = new ExtractionPool({ lanes: 1, maxQueuedPerClient: 2 });
    const pdf = await pdfExtractor(pool);
    const owners = [owner("h"), owner("h"), owner("h"), owner("h"), owner("n")];
    const jobs = owners.map((o, i) => watch(pdf.extract(SLOW, undefined, { label: `f${i}.pdf`, limits: LIMITS, owner: o })));
    await until(() => pool.stats().started === 1);
    const busy = await jobs[3]!.outcome;
    expect(busy).toBeInstanceOf(GroundkitError);
    expect((busy as GroundkitError).code).toBe("EXTRACTION_BUSY");
    expect((busy as GroundkitError).message).toMatch(/f3\.pdf was not queued/);
    expect(pool.stats().refusedBusy).toBe(1);
    expect(jobs[4]!.settled()).toBe(false);
    for (const o of owners) o.abort();
    await Promise.all(jobs.map((j) => j.outcome));
    expect(pool.stats()).toMatchObject({ started: 1, droppedQueued: 3, abandonedRunning: 1 });
  });
});

describe("extraction cache", () => {
  it("extracts the same bytes once, and other bytes of the same size again", { timeout: 120_000 }, async () => {
    const pool = new ExtractionPool();
    const pdf = await pdfExtractor(pool);
    const cache = new ExtractionCache();
    const a = await makePdf([["retained for 30 days"]]);
    const b = await makePdf([["retained for 90 days"]]);
    expect(b.length).toBe(a.length);
    const [one, two] = await Promise.all([cache.extract(pdf, a, undefined), cache.extract(pdf, a, undefined)]);
    const three = await cache.extract(pdf, new Uint8Array(a), undefined);
    expect([one, two, three].map((r: ExtractedText) => r.text.trim())).toEqual(Array(3).fill("retained for 30 days"));
    expect(pool.stats().started).toBe(1);
    expect(cache.stats()).toMatchObject({ misses: 1, shared: 1, hits: 1, entries: 1 });
    expect((await cache.extract(pdf, b, undefined)).text.trim()).toBe("retained for 90 days");
    expect(pool.stats().started).toBe(2);
  });

  it("keeps a shared extraction running while any caller waits, and cancels it when the last one leaves", { timeout: 120_000 }, async () => {
    const pool = new ExtractionPool();
    const pdf = await pdfExtractor(pool);
    const cache = new ExtractionCache();
    const callers = [owner("a"), owner("b")];
    const waits = callers.map((o) => watch(cache.extract(pdf, SLOW, undefined, { label: "slow.pdf", limits: LIMITS, owner: o })));
    await until(() => pool.stats().started === 1);
    callers[0]!.abort();
    expect(((await waits[0]!.outcome) as GroundkitError).code).toBe("REQUEST_CANCELLED");
    expect(waits[1]!.settled()).toBe(false);
    expect(pool.stats().abandonedRunning).toBe(0);
    callers[1]!.abort();
    expect(((await waits[1]!.outcome) as GroundkitError).code).toBe("REQUEST_CANCELLED");
    await until(() => pool.stats().abandonedRunning === 1);
    expect(cache.stats()).toMatchObject({ misses: 1, shared: 1, entries: 0 });
  });
});
