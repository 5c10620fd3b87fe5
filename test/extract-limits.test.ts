/**
 * Extraction is bounded (issue 12, item 5): the red-team's 2 MB of unclosed
 * `<div>`s (92 s before) and a small PDF inflating to hundreds of MiB (GiBs of
 * resident memory before) are refused by name with `EXTRACTION_LIMIT` within
 * their budget, the run goes on, re-verification runs under the same limits,
 * and the caller's event loop keeps turning while a file is extracted.
 * Budgets are set small through the options so the file stays quick; each
 * test's timeout is only a hang check.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { collectionSettings } from "../src/collection/settings.js";
import { loadConfigFile } from "../src/core/config.js";
import { GroundkitError } from "../src/core/errors.js";
import type { ExtractOptions, Extractor, ExtractorKind } from "../src/extract/extractor.js";
import { createHtmlExtractor } from "../src/extract/html.js";
import { createPdfExtractor } from "../src/extract/pdf.js";
import { getExtractorRegistry } from "../src/extract/registry.js";
import { tempDir } from "./support/cli.js";
import { inflatingPdf, nestedDivs } from "./support/extraction-bombs.js";
import { makePdf } from "./support/pdf-fixtures.js";

const HANG_CHECK_MS = 30_000;
/**
 * The memory budget of every call here. The worker is replaced only after a
 * refusal (a replacement started from TypeScript source takes seconds).
 */
const MEMORY = { maxMemoryMb: 64 };
const html = (s: string): Uint8Array => new TextEncoder().encode(s);

async function extractorOf(kind: ExtractorKind): Promise<Extractor> {
  const extractor = (await getExtractorRegistry()).get(kind);
  if (!extractor) throw new Error(`no ${kind} extractor`);
  return extractor;
}

/** The refusal `extract` ends with (failing the test when it succeeds or fails otherwise). */
async function refusal(kind: ExtractorKind, bytes: Uint8Array, options: ExtractOptions): Promise<GroundkitError> {
  const extractor = await extractorOf(kind);
  const outcome = await extractor.extract(bytes, undefined, options).then(
    (result) => new Error(`extracted ${result.text.length} characters instead of refusing`),
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(GroundkitError);
  return outcome as GroundkitError;
}

let bomb: Uint8Array;
let work: { dir: string; cleanup: () => void };

beforeAll(async () => {
  bomb = await inflatingPdf(256);
  work = tempDir("grk-extract-limits-");
});
afterAll(() => work.cleanup());

describe("extraction limits", () => {
  it(
    "refuses 2 MB of unclosed <div>s by their nesting depth",
    async () => {
      const err = await refusal("html", nestedDivs(400_000), { label: "deep.html", limits: MEMORY });
      expect(err.code).toBe("EXTRACTION_LIMIT");
      expect(err.detail).toMatchObject({ limit: "nesting", maxDepth: 1024 });
      expect(err.message).toMatch(/^The extraction of deep\.html stopped: the HTML nests more than 1024 elements/);
      // Nesting up to the bound is fine.
      const ok = await (await extractorOf("html")).extract(nestedDivs(1000), undefined, { limits: MEMORY });
      expect(ok.text).toBe("bottom");
    },
    HANG_CHECK_MS,
  );

  it(
    "stops a PDF whose stream inflates past the memory limit",
    async () => {
      const err = await refusal("pdf", bomb, { label: "bomb.pdf", limits: { ...MEMORY, timeoutMs: 25_000 } });
      expect(err.code).toBe("EXTRACTION_LIMIT");
      expect(err.detail).toMatchObject({ limit: "memory", maxMemoryMb: 64 });
      expect(err.message).toBe("The extraction of bomb.pdf stopped: it needed more than 64 MiB of memory (the memory limit).");
    },
    HANG_CHECK_MS,
  );

  it(
    "stops an extraction at the time limit, and the next file extracts",
    async () => {
      // Nesting within the bound and an end tag that matches nothing, again and again: each end tag
      // makes the parser scan the open elements, seconds of work without much memory.
      const slow = html(`${"<div>".repeat(1000)}${"</i>".repeat(1_000_000)}`);
      const err = await refusal("html", slow, { label: "slow.html", limits: { ...MEMORY, timeoutMs: 100 } });
      expect(err.code).toBe("EXTRACTION_LIMIT");
      expect(err.detail).toMatchObject({ limit: "time", timeoutMs: 100 });
      expect(err.message).toBe("The extraction of slow.html stopped after 100 ms (the time limit).");
      const next = await (await extractorOf("html")).extract(html("<p>after the refusal</p>"), undefined, { limits: MEMORY });
      expect(next.text).toBe("after the refusal");
    },
    HANG_CHECK_MS,
  );

  it("refuses text longer than the output limit, counted in code points", async () => {
    const astral = html("<p>\u{1F600}\u{20000}\u{1F600}</p>");
    const extractor = await extractorOf("html");
    const limits = (maxOutputCodePoints: number) => ({ limits: { ...MEMORY, maxOutputCodePoints } });
    expect((await extractor.extract(astral, undefined, limits(3))).text).toBe("\u{1F600}\u{20000}\u{1F600}");
    const err = await refusal("html", astral, { label: "a.html", ...limits(2) });
    expect(err.code).toBe("EXTRACTION_LIMIT");
    expect(err.detail).toMatchObject({ limit: "output", maxOutputCodePoints: 2 });
    // An amplifying document (each deep list item carries its indentation) stops while it is written.
    const lists = html(`${"<ul><li>x".repeat(500)}${"<li>y</li>".repeat(50_000)}`);
    expect((await refusal("html", lists, limits(1_000_000))).detail).toMatchObject({ limit: "output" });
    const pdf = await makePdf([["first page"], ["second page"]]);
    expect((await refusal("pdf", pdf, limits(15))).detail).toMatchObject({ limit: "output" });
  });

  it("produces exactly the text the extractors give in this thread", async () => {
    const samples: Array<[() => Promise<Extractor>, ExtractorKind, Uint8Array]> = [
      [createHtmlExtractor, "html", html("<title>T</title><h2>Install</h2><ul><li>one<ul><li>two</li></ul></li></ul><pre>  code\n</pre>")],
      [createPdfExtractor, "pdf", await makePdf([["Chapter one", "café déjà vu"], ["\u{1F600}\u{20000}"]], { title: "Doc" })],
    ];
    for (const [inThreadExtractor, kind, bytes] of samples) {
      const inThread = await (await inThreadExtractor()).extract(bytes);
      expect(await (await extractorOf(kind)).extract(bytes, undefined, { limits: MEMORY })).toEqual(inThread);
    }
  });

  it(
    "refuses both bombs by name during ingest while the other files index",
    async () => {
      const docs = join(work.dir, "docs");
      mkdirSync(docs);
      writeFileSync(join(docs, "a-deep.html"), nestedDivs(400_000));
      writeFileSync(join(docs, "b-bomb.pdf"), bomb);
      writeFileSync(join(docs, "c-notes.md"), "# Notes\n\nThe ferry leaves at dawn.\n");
      writeFileSync(join(docs, "d-page.html"), "<h1>Harbour</h1><p>The lighthouse stands on the breakwater.</p>");
      writeFileSync(join(docs, "e-manual.pdf"), await makePdf([["The tide table is posted weekly."]]));
      const col = await openCollection({
        indexDir: join(work.dir, "idx"),
        collection: "c",
        create: true,
        extraction: { ...MEMORY, timeoutMs: 10_000 },
      });
      try {
        const summary = await col.ingest([docs]);
        expect(summary.indexed).toBe(3);
        expect(summary.failed.map((f) => [f.source, f.code])).toEqual([
          [join(docs, "a-deep.html"), "EXTRACTION_LIMIT"],
          [join(docs, "b-bomb.pdf"), "EXTRACTION_LIMIT"],
        ]);
        expect(summary.failed[1]!.message).toContain(join(docs, "b-bomb.pdf"));
        const hits = await col.search("tide table", { verify: true });
        expect(hits[0]?.citation.source).toBe(join(docs, "e-manual.pdf"));
        expect(hits[0]?.verification?.verdict).toBe("verified");
      } finally {
        await col.close();
      }
    },
    HANG_CHECK_MS,
  );

  it("re-verifies extracted citations under the same limits", async () => {
    const dir = join(work.dir, "verify");
    mkdirSync(dir);
    writeFileSync(join(dir, "page.html"), "<h1>Harbour</h1><p>The lighthouse keeper logs every passing ship.</p>");
    const location = { indexDir: join(work.dir, "idx-verify"), collection: "v" };
    const writer = await openCollection({ ...location, create: true, extraction: MEMORY });
    await writer.ingest([dir]);
    await writer.close();
    const strict = await openCollection({ ...location, extraction: { ...MEMORY, maxOutputCodePoints: 10 } });
    try {
      const [hit] = await strict.search("lighthouse keeper", { verify: true });
      expect(hit?.verification?.verdict).toBe("unresolvable");
      expect(hit?.verification?.detail).toContain("the output limit");
    } finally {
      await strict.close();
    }
  });

  it("reads the limits from the config file and refuses bad ones up front", async () => {
    const file = join(work.dir, "groundkit.config.json");
    writeFileSync(file, JSON.stringify({ extraction: { timeout_ms: 5000, max_memory_mb: 256, max_output_code_points: 1000 } }));
    expect(collectionSettings(loadConfigFile(file)).extraction).toEqual({ timeoutMs: 5000, maxMemoryMb: 256, maxOutputCodePoints: 1000 });
    writeFileSync(file, JSON.stringify({ extraction: { timeout: 5 } }));
    expect(() => loadConfigFile(file)).toThrow(/extraction/);
    const open = () => openCollection({ indexDir: join(work.dir, "idx-bad"), create: true, extraction: { maxMemoryMb: 8 } });
    await expect(open()).rejects.toThrow(/maxMemoryMb must be an integer from 32/);
  });

  it(
    "keeps the caller's event loop turning while a file is extracted",
    async () => {
      // About 3 MB of ordinary paragraphs: seconds of parsing, none of it on this thread.
      const big = html(`<title>big</title>${"<p>The harbour master records every ship that passes the breakwater.</p>".repeat(40_000)}`);
      const extractor = await extractorOf("html");
      await extractor.extract(html("<p>warm</p>"), undefined, { limits: MEMORY });
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      try {
        const result = await extractor.extract(big, undefined, { limits: MEMORY });
        expect(result.title).toBe("big");
      } finally {
        clearInterval(timer);
      }
      // In-thread extraction would let no timer fire at all; one tick shows the loop kept turning.
      expect(ticks).toBeGreaterThanOrEqual(1);
    },
    HANG_CHECK_MS,
  );
});
