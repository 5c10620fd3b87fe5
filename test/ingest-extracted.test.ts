/**
 * The extracted class end to end: a folder of Markdown, PDF and HTML ingests
 * in one run, every hit verifies with the right class (PDF hits carry pages),
 * an edited PDF drifts, an inactive extractor identity is unresolvable naming
 * both, and containment is checked before any extractor lookup.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { documentIdFor } from "../src/core/ids.js";
import { sha256 } from "../src/core/text.js";
import { getExtractorRegistry } from "../src/extract/registry.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { grk, tempDir } from "./support/cli.js";
import { makePdf, pseudoRandomBytes } from "./support/pdf-fixtures.js";

interface Hit {
  chunk_id: string;
  text: string;
  citation: Record<string, unknown> & { source: string; source_class: string; extractor: string | null; page_start?: number | null };
  verification?: { verdict: string; detail: string };
}

let work: { dir: string; cleanup: () => void };
let docs: string;

function search(query: string, extra: string[] = []): Hit[] {
  const res = grk(["search", query, "--json", ...extra], { cwd: work.dir });
  expect(res.code, res.stderr).toBe(0);
  return (JSON.parse(res.stdout) as { results: Hit[] }).results;
}

beforeAll(async () => {
  work = tempDir("grk-extract-");
  docs = join(work.dir, "handbook");
  mkdirSync(docs);
  writeFileSync(join(docs, "intro.md"), "# Intro\n\nThe handbook explains glacier observation.\n");
  writeFileSync(
    join(docs, "manual.pdf"),
    await makePdf([
      ["Chapter one: volcano monitoring", "Seismometers record tremors near the crater."],
      ["Chapter two: café déjà vu", "Tiltmeters measure the swelling of the volcano flank."],
    ]),
  );
  writeFileSync(
    join(docs, "page.html"),
    "<!doctype html><html><head><title>Aurora guide</title><style>.x{}</style><script>var hidden='zzzsecret'</script></head>" +
      "<body><h1>Aurora</h1><p>The aurora borealis appears when solar wind &amp; magnetosphere interact.</p></body></html>",
  );
  writeFileSync(join(docs, "broken.pdf"), pseudoRandomBytes(2048, 7));
  writeFileSync(join(docs, "image.png"), pseudoRandomBytes(64, 3));
});
afterAll(() => work.cleanup());

describe("extracted sources", () => {
  it("ingests Markdown, PDF and HTML in one run; unsupported files are listed, a corrupt PDF is refused", () => {
    const res = grk(["ingest", "handbook", "--json"], { cwd: work.dir });
    const s = JSON.parse(res.stdout);
    expect(res.code).toBe(1);
    expect(s.failed.length, JSON.stringify(s.failed)).toBe(1);
    expect(s.indexed).toBe(3);
    expect(s.unsupported).toEqual([join(docs, "image.png")]);
    expect(s.failed).toEqual([expect.objectContaining({ source: join(docs, "broken.pdf"), code: "EXTRACTION_FAILED" })]);
    const again = JSON.parse(grk(["ingest", "handbook", "--json"], { cwd: work.dir }).stdout);
    expect(again.unchanged).toBe(3);
  });

  it("verifies PDF hits with their page and HTML hits as extracted", async () => {
    const registry = await getExtractorRegistry();
    const pdf = search("tiltmeters swelling flank", ["--verify"]);
    expect(pdf[0]!.citation).toMatchObject({ source_class: "extracted", extractor: registry.get("pdf")!.identity, page_start: 1, page_end: 2 });
    expect(pdf[0]!.verification?.verdict).toBe("verified");

    const html = search("aurora borealis solar wind", ["--verify"]);
    expect(html[0]!.citation).toMatchObject({ source_class: "extracted", extractor: registry.get("html")!.identity });
    expect(html[0]!.verification?.verdict).toBe("verified");
    expect(search("zzzsecret")).toEqual([]);

    const md = search("glacier observation", ["--verify"]);
    expect(md[0]!.citation).toMatchObject({ source_class: "text", extractor: null });
  });

  it("reports an edited PDF as drifted and an inactive extractor identity as unresolvable naming both", async () => {
    const [hit] = search("seismometers tremors crater");
    writeFileSync(join(work.dir, "pdf-hit.json"), JSON.stringify(hit));

    const tampered = { ...hit!.citation, extractor: "pdfjs-dist/0.0.1" };
    const v = JSON.parse(grk(["verify", "-", "--json"], { cwd: work.dir, input: JSON.stringify(tampered) }).stdout);
    expect(v.verdict).toBe("unresolvable");
    const active = (await getExtractorRegistry()).get("pdf")!.identity;
    expect(v.detail).toContain("pdfjs-dist/0.0.1");
    expect(v.detail).toContain(active);

    writeFileSync(
      join(docs, "manual.pdf"),
      await makePdf([
        ["Chapter one: volcano monitoring revised", "Seismometers record tremors near the crater rim."],
        ["Chapter two: café déjà vu", "Tiltmeters measure the swelling of the volcano flank."],
      ]),
    );
    const drifted = JSON.parse(grk(["verify", "pdf-hit.json", "--json"], { cwd: work.dir }).stdout);
    expect(drifted.verdict).toBe("drifted");

    writeFileSync(join(docs, "manual.pdf"), pseudoRandomBytes(1000, 11));
    const corrupt = JSON.parse(grk(["verify", "pdf-hit.json", "--json"], { cwd: work.dir }).stdout);
    expect(corrupt.verdict).toBe("unresolvable");
    expect(corrupt.detail).toMatch(/re-extraction/);
  });

  it("reads nothing for a citation the collection did not index (containment before extractor: test/cite-verify.test.ts)", () => {
    const outside = {
      document_id: "d",
      chunk_id: "c",
      source: join(work.dir, "elsewhere", "x.pdf"),
      source_class: "extracted",
      extractor: "no-such-extractor/9",
      start_offset: 0,
      end_offset: 1,
      start_line: 1,
      end_line: 1,
      text_hash: sha256("x"),
    };
    const v = JSON.parse(
      grk(["verify", "-", "--json", "--base-dir", docs], { cwd: work.dir, input: JSON.stringify(outside) }).stdout,
    );
    expect(v.verdict).toBe("unresolvable");
    expect(v.detail).toMatch(/is not in collection 'default'/);
    expect(v.detail).not.toMatch(/no-such-extractor|outside the base directory/);
  });
});

describe("source class round trip (regression: never silently text/null)", () => {
  it("keeps a directly stored extracted document as extracted/x@1 through search and fetch", async () => {
    const dir = join(work.dir, "roundtrip");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "c.sqlite3");
    const store = SqliteStore.open(file, { create: true });
    const source = join(dir, "doc.pdf");
    writeFileSync(source, "placeholder bytes: containment passes, then the extractor lookup decides");
    const text = "quasar spectroscopy notes";
    await store.replaceDocument(
      {
        document_id: documentIdFor(source),
        source,
        source_class: "extracted",
        extractor: "x@1",
        base_dir: dir,
        fingerprint: "f",
        content_hash: sha256(text),
        content_length: text.length,
        ingested_at: new Date().toISOString(),
        metadata: {},
      },
      [
        {
          chunk_id: "chunk-1",
          ordinal: 0,
          text,
          start_offset: 0,
          end_offset: text.length,
          start_line: 1,
          end_line: 1,
          page_start: 1,
          page_end: 1,
          text_hash: sha256(text),
          heading_path: [],
        },
      ],
    );
    await store.close();
    const col = await openCollection({ indexDir: dir, collection: "c" });
    try {
      const [hit] = await col.search("quasar spectroscopy");
      expect(hit!.citation).toMatchObject({ source_class: "extracted", extractor: "x@1" });
      const view = await col.getChunk("chunk-1");
      expect(view.citation).toMatchObject({ source_class: "extracted", extractor: "x@1" });
      expect(view.verification.verdict).toBe("unresolvable");
      expect(view.verification.detail).toContain("x@1");
    } finally {
      await col.close();
    }
  });
});
