/**
 * Issue 29: `grk search "…" --verify` over PDF hits re-extracted PDFs. A
 * command extracts each file at most once (counted from its OTLP spans, one
 * `groundkit.extraction` per re-extraction, `outcome: run` when a worker ran),
 * and a server's process-wide cache answers repeated searches without any
 * extraction, while a file swapped for other bytes of the same size and mtime
 * is extracted again and reported drifted (the cache is keyed by the bytes).
 */
import { mkdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getExtractionPool } from "../src/extract/extraction-pool.js";
import { ingest, startTestServer } from "./service-fixtures.js";
import { grk, tempDir } from "./support/cli.js";
import { startOtlpReceiver, type OtlpReceiver } from "./support/otlp-receiver.js";
import { makePdf } from "./support/pdf-fixtures.js";

let work: { dir: string; cleanup: () => void };
let receiver: OtlpReceiver;

/** A PDF of `pages` pages, each holding the word "ledger" among lines of its own. */
function ledgerPages(name: string, pages: number): Promise<Uint8Array> {
  return makePdf(Array.from({ length: pages }, (_, p) => [`${name} page ${p + 1}`, "the ledger keeps every entry", `filler ${name} ${p}`]));
}

/**
 * Other pages of exactly `size` bytes: a shorter PDF padded with blank lines
 * after its end marker (which readers ignore).
 */
async function sameSizeOther(size: number): Promise<Uint8Array> {
  for (const name of ["eno", "neo", "oen", "noe", "a", "b"]) {
    const bytes = await ledgerPages(name, 40);
    if (bytes.length <= size) return new Uint8Array(Buffer.concat([bytes, Buffer.alloc(size - bytes.length, "\n")]));
  }
  throw new Error(`no other PDF fits in ${size} bytes`);
}

beforeAll(async () => {
  work = tempDir("grk-extract-count-");
  receiver = await startOtlpReceiver();
  const docs = join(work.dir, "docs");
  mkdirSync(docs);
  writeFileSync(join(docs, "one.pdf"), await ledgerPages("one", 40));
  writeFileSync(join(docs, "two.pdf"), await ledgerPages("two", 40));
});
afterAll(async () => {
  await receiver.close();
  work.cleanup();
});

describe("re-extractions per search", () => {
  it("grk search --verify extracts each PDF once however many of its passages hit", { timeout: 120_000 }, async () => {
    expect(grk(["ingest", "docs", "--chunk-size", "200", "--chunk-overlap", "0"], { cwd: work.dir }).code).toBe(0);
    const env = {
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: "grk-extract-count",
      OTEL_BSP_SCHEDULE_DELAY: "50",
    };
    const res = grk(["search", "ledger entry", "--verify", "--json", "--top-k", "20"], { cwd: work.dir, env });
    expect(res.code, res.stderr).toBe(0);
    const hits = (JSON.parse(res.stdout) as { results: { citation: { source: string }; verification: { verdict: string } }[] }).results;
    const files = new Set(hits.map((h) => h.citation.source));
    expect(files.size).toBe(2);
    expect(hits.length).toBeGreaterThan(files.size * 3);
    expect(hits.every((h) => h.verification.verdict === "verified")).toBe(true);
    const search = await receiver.waitFor((s) => s.name === "groundkit.search");
    const extractions = receiver.spans.filter((s) => s.traceId === search.traceId && s.name === "groundkit.extraction");
    expect(extractions.map((s) => s.attributes["groundkit.extraction.outcome"])).toEqual(["run", "run"]);
  });

  it("a server's repeated searches extract nothing, and a same-size same-mtime swap is extracted again", { timeout: 120_000 }, async () => {
    const indexDir = join(work.dir, ".groundkit-served");
    const docs = join(work.dir, "docs");
    await ingest(indexDir, [docs], "default", { chunkSize: 200, chunkOverlap: 0 });
    const server = await startTestServer({ indexDir });
    const search = async (): Promise<{ source: string; verdict: string }[]> => {
      const res = await fetch(`${server.url}/v1/search`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "ledger entry", top_k: 20, verify: true }),
      });
      const body = (await res.json()) as { results: { citation: { source: string }; verification: { verdict: string } }[] };
      return body.results.map((h) => ({ source: h.citation.source, verdict: h.verification.verdict }));
    };
    const one = join(docs, "one.pdf");
    // A whole-second mtime, so restoring it after the swap gives back exactly the same value.
    const fixed = new Date(Date.UTC(2024, 0, 1));
    utimesSync(one, fixed, fixed);
    try {
      const started = (): number => getExtractionPool().stats().started;
      const first = started();
      const hits = await search();
      expect(hits.length).toBeGreaterThan(6);
      const afterFirst = started();
      expect(afterFirst - first).toBe(2);
      await search();
      await search();
      expect(started()).toBe(afterFirst);

      const { mtimeMs, size } = statSync(one);
      writeFileSync(one, await sameSizeOther(size));
      utimesSync(one, fixed, fixed);
      expect(statSync(one)).toMatchObject({ mtimeMs, size });
      const again = await search();
      expect(started()).toBe(afterFirst + 1);
      const verdicts = new Set(again.filter((h) => h.source === one).map((h) => h.verdict));
      expect(verdicts).toEqual(new Set(["drifted"]));
      expect(again.filter((h) => h.source !== one).every((h) => h.verdict === "verified")).toBe(true);
    } finally {
      await server.close();
    }
  });
});
