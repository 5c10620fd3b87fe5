/**
 * BM25 behaviour through the library: hostile queries are text, CJK matches,
 * scores are positive and ordered, ties break deterministically.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type Collection } from "../src/collection/index.js";
import { GroundkitError } from "../src/core/errors.js";
import { tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let col: Collection;

beforeAll(async () => {
  work = tempDir("grk-lex-");
  const docs = join(work.dir, "docs");
  mkdirSync(docs);
  writeFileSync(join(docs, "ja.md"), "# 検索\n\n全文検索エンジンは引用を検証します。東京の天気は晴れです。\n");
  writeFileSync(join(docs, "zh.md"), "# 说明\n\n这个系统可以验证引用的来源。北京是中国的首都。\n");
  writeFileSync(join(docs, "en.md"), "# Engine\n\nThe engine verifies citations against the source. Running runners run.\n");
  writeFileSync(join(docs, "twin-a.md"), "identical twin text about zebras\n");
  writeFileSync(join(docs, "twin-b.md"), "identical twin text about zebras\n");
  col = await openCollection({ indexDir: join(work.dir, "idx"), create: true });
  const summary = await col.ingest([docs]);
  expect(summary.failed).toEqual([]);
});
afterAll(async () => {
  await col.close();
  work.cleanup();
});

describe("lexical search", () => {
  it("hydrates each hit as the chunk reads back by id (hits are read as raw rows in column order)", async () => {
    const hits = await col.search("engine citations twin zebras", { topK: 10 });
    expect(hits.length).toBeGreaterThan(1);
    for (const hit of hits) {
      const chunk = await col.getChunk(hit.chunk_id);
      expect({ text: hit.text, heading_path: hit.heading_path, citation: hit.citation, document_id: hit.document_id }).toEqual({
        text: chunk.text,
        heading_path: chunk.heading_path,
        citation: chunk.citation,
        document_id: chunk.document_id,
      });
    }
  });

  it("finds Japanese and Chinese passages by their words", async () => {
    expect((await col.search("東京"))[0]?.citation.source).toMatch(/ja\.md$/);
    expect((await col.search("全文検索"))[0]?.citation.source).toMatch(/ja\.md$/);
    expect((await col.search("北京"))[0]?.citation.source).toMatch(/zh\.md$/);
    expect((await col.search("验证引用"))[0]?.citation.source).toMatch(/zh\.md$/);
  });

  it("stems English terms", async () => {
    const hits = await col.search("verify citation");
    expect(hits[0]?.citation.source).toMatch(/en\.md$/);
  });

  it("returns positive, descending scores with a deterministic tie-break", async () => {
    const a = await col.search("zebras identical");
    const b = await col.search("zebras identical");
    expect(a.map((h) => h.chunk_id)).toEqual(b.map((h) => h.chunk_id));
    expect(a).toHaveLength(2);
    expect(a[0]!.score).toBeGreaterThan(0);
    expect(a[0]!.score).toBeCloseTo(a[1]!.score, 10);
    // Equal scores and one text: by the file's path in the ingested folder (store/hit-order.ts).
    expect(a.map((h) => basename(h.citation.source))).toEqual(["twin-a.md", "twin-b.md"]);
  });

  it("treats every hostile string as text", async () => {
    const hostile = [
      '"', '""', "AND", "OR NOT", "NEAR(a b, 2)", "*", "^start", "body:engine", "heading:Engine", "{body heading}:x",
      "(((", ")))", "a\u0000b", "'; DROP TABLE chunks; --", "!".repeat(4096), "engine\u200b", "\\", "%_", "a OR", "- engine",
    ];
    for (const q of hostile) {
      const res = await col.search(q);
      expect(Array.isArray(res), q).toBe(true);
    }
    expect((await col.search("body:engine"))[0]?.citation.source).toMatch(/en\.md$/);
  });

  it("rejects empty, whitespace-only and oversized queries with typed errors", async () => {
    await expect(col.search("")).rejects.toMatchObject({ code: "QUERY_EMPTY" });
    await expect(col.search(" \t\n")).rejects.toMatchObject({ code: "QUERY_EMPTY" });
    await expect(col.search("a".repeat(4097))).rejects.toBeInstanceOf(GroundkitError);
    await expect(col.search("x", { topK: 101 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
