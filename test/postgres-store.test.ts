/**
 * The PostgreSQL store against a real server on 127.0.0.1 (test/support/postgres-server.ts):
 * documents, chunks, BM25, filters, vectors, meta and generation, the writer
 * lock, and a server that is gone answering STORE_UNAVAILABLE instead of hanging.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { analyzeQuery } from "../src/analysis/analyzer.js";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import type { NewChunk, StoredDocument } from "../src/store/store.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";

let pg: TestPostgres;
const config = { kind: "postgres" as const, url_env: "GRK_TEST_PG_URL", schema: "grk_test" };

beforeAll(async () => {
  pg = await startPostgres();
  process.env.GRK_TEST_PG_URL = pg.url;
});
afterAll(async () => {
  await pg?.stop();
});

function doc(i: number, metadata: Record<string, unknown> = {}): StoredDocument {
  return {
    document_id: `doc-${i}`,
    source: `/corpus/doc${i}.md`,
    source_class: "text",
    extractor: null,
    base_dir: "/corpus",
    fingerprint: `fp${i}`,
    content_hash: `h${i}`,
    content_length: 100,
    ingested_at: `2026-01-0${1 + (i % 9)}T00:00:00.000Z`,
    metadata: { rel_path: `doc${i}.md`, ext: ".md", ...metadata },
  };
}

function chunk(i: number, j: number, text: string): NewChunk {
  return {
    chunk_id: `c-${i}-${j}`,
    ordinal: j,
    text,
    start_offset: j * 10,
    end_offset: j * 10 + text.length,
    start_line: 1,
    end_line: 1,
    page_start: null,
    page_end: null,
    text_hash: `t${i}${j}`,
    heading_path: ["Title"],
  };
}

describe("PostgresStore", () => {
  it("stores documents and chunks and ranks them by BM25", async () => {
    const store = await PostgresStore.open(config, "basic", { create: true });
    try {
      await store.replaceDocument(doc(1, { tags: ["alpha"] }), [chunk(1, 0, "citations verify exact offsets"), chunk(1, 1, "a ranking engine")]);
      await store.replaceDocument(doc(2), [chunk(2, 0, "offsets offsets offsets of a passage")]);
      expect((await store.getDocument("doc-1"))?.metadata).toEqual({ rel_path: "doc1.md", ext: ".md", tags: ["alpha"] });
      expect((await store.getChunk("c-1-1"))?.text).toBe("a ranking engine");
      const hits = await store.searchLexical(analyzeQuery("offsets"), 10);
      expect(hits.map((h) => h.chunk_id)).toEqual(["c-2-0", "c-1-0"]);
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
      const tagged = await store.searchLexical(analyzeQuery("offsets"), 10, { clauses: [{ kind: "tag", value: "alpha" }] });
      expect(tagged.map((h) => h.chunk_id)).toEqual(["c-1-0"]);
      const globbed = await store.searchLexical(analyzeQuery("offsets"), 10, { clauses: [{ kind: "path_glob", glob: "doc2*" }] });
      expect(globbed.map((h) => h.chunk_id)).toEqual(["c-2-0"]);
      expect(await store.stats()).toMatchObject({ documents: 2, chunks: 3, generation: 2 });
      expect(await store.deleteDocument("doc-2")).toBe(true);
      expect((await store.searchLexical(analyzeQuery("offsets"), 10)).map((h) => h.chunk_id)).toEqual(["c-1-0"]);
      expect(await store.stats()).toMatchObject({ documents: 1, chunks: 2, generation: 3 });
    } finally {
      await store.close();
    }
  });

  it("keeps a chunk's source-file lines (HTML) in its metadata, and none for a chunk without them", async () => {
    const store = await PostgresStore.open(config, "source_lines", { create: true });
    try {
      await store.replaceDocument(doc(3), [{ ...chunk(3, 0, "from the html file"), source_start_line: 12, source_end_line: 14 }, chunk(3, 1, "plain")]);
      expect(await store.getChunk("c-3-0")).toMatchObject({ source_start_line: 12, source_end_line: 14, heading_path: ["Title"] });
      expect(await store.getChunk("c-3-1")).toMatchObject({ source_start_line: null, source_end_line: null });
    } finally {
      await store.close();
    }
  });

  it("without extension vector scans exactly, and status says so", async () => {
    const store = await PostgresStore.open(config, "exact", { create: true });
    try {
      const v = (x: number, y: number, z: number) => Float32Array.from([x, y, z]);
      await store.replaceDocument(doc(1), [chunk(1, 0, "one"), chunk(1, 1, "two")], [v(1, 0, 0), v(0, 1, 0)]);
      await store.replaceDocument(doc(2), [chunk(2, 0, "three")], [v(1, 1, 0)]);
      // The writer's step after an ingest finds nothing to install on Debian's PostgreSQL (no pgvector package).
      for (const status of [await store.syncVectorIndex(), await store.vectorIndexStatus()]) {
        expect(status).toEqual({
          kind: "exact",
          reason: "extension vector not available on this server: every dense search scans all vectors",
          library: "postgresql",
          state: "none",
          vectors: 3,
          indexed_vectors: 0,
          pending_changes: 0,
          file_bytes: 0,
        });
      }
      const hits = await store.searchVectors(v(2, 1, 0), 2);
      expect(hits.map((h) => h.chunk_id)).toEqual(["c-2-0", "c-1-0"]);
      // Unit vectors are stored as float32: the score is the cosine to float32 rounding.
      expect(hits[0]!.score).toBeCloseTo(3 / Math.sqrt(10), 6);
      expect((await store.searchVectors(v(0, 1, 0), 5, { clauses: [{ kind: "path_glob", glob: "doc1*" }] })).map((h) => h.chunk_id)).toEqual(["c-1-1", "c-1-0"]);
    } finally {
      await store.close();
    }
  });

  it("reports a server that is not there as STORE_UNAVAILABLE", async () => {
    process.env.GRK_DEAD_PG_URL = "postgres://nobody:secret-pw@127.0.0.1:1/none";
    let err: unknown;
    try {
      await PostgresStore.open({ kind: "postgres", url_env: "GRK_DEAD_PG_URL" }, "x", { create: true });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GroundkitError);
    expect((err as GroundkitError).code).toBe("STORE_UNAVAILABLE");
    expect((err as Error).message).not.toContain("secret-pw");
  });
});
