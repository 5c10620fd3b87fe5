/**
 * The HNSW index of a SQLite collection is built on a worker thread, never on
 * the event loop of the process that asked (issue 26: a serving process keeps
 * answering while an ingest's index build runs). Real SQLite file, real usearch.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mulberry32 } from "../src/core/random.js";
import type { NewChunk, StoredDocument } from "../src/store/store.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";

const DIMS = 64;
const DOCS = 300;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "grk-ann-thread-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function unit(seed: number): Float32Array {
  const rand = mulberry32(seed);
  const v = Float32Array.from({ length: DIMS }, () => rand() * 2 - 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function doc(i: number): StoredDocument {
  return {
    document_id: `doc-${i}`,
    source: `/corpus/${i}.md`,
    source_class: "text",
    extractor: null,
    base_dir: "/corpus",
    fingerprint: `f${i}`,
    content_hash: `h${i}`,
    content_length: 10,
    ingested_at: "2026-01-01T00:00:00Z",
    metadata: {},
  };
}

function chunk(i: number): NewChunk {
  return {
    chunk_id: `c${i}`,
    ordinal: 0,
    text: `chunk ${i}`,
    start_offset: 0,
    end_offset: 7 + String(i).length,
    start_line: 1,
    end_line: 1,
    page_start: null,
    page_end: null,
    text_hash: `t${i}`,
    heading_path: [],
  };
}

/** How many times the event loop turns while `work` is pending. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const spin = (): void => {
    if (!running) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const result = await work();
  running = false;
  return { result, turns };
}

describe("HNSW builds off the event loop", () => {
  it("builds and saves the index on a worker thread while this thread keeps turning", async () => {
    const store = SqliteStore.open(join(dir, "c.sqlite3"), { create: true, vectorIndex: { minVectors: 50 } });
    try {
      await store.transaction(async (tx) => {
        for (let i = 0; i < DOCS; i++) await tx.replaceDocument(doc(i), [chunk(i)], [unit(i)]);
      });
      expect((await store.vectorIndexStatus()).state).toBe("missing");
      const progress: number[] = [];
      const { result, turns } = await turnsDuring(() => store.syncVectorIndex((done) => progress.push(done)));
      expect(result).toMatchObject({ kind: "hnsw", state: "current", indexed_vectors: DOCS });
      // A build on this thread would let the loop turn at most once; the worker's lets it spin meanwhile.
      expect(turns).toBeGreaterThan(10);
      expect(progress.at(-1)).toBe(DOCS);
      // The saved index answers this connection's searches: the nearest of a stored vector is itself.
      const hits = await store.searchVectors(unit(7), 3);
      expect(hits[0]!.chunk_id).toBe("c7");
      // Folding a later change also runs there, and leaves the index current.
      await store.transaction(async (tx) => tx.replaceDocument(doc(DOCS), [chunk(DOCS)], [unit(DOCS)]));
      const folded = await turnsDuring(() => store.syncVectorIndex());
      expect(folded.result).toMatchObject({ state: "current", indexed_vectors: DOCS + 1 });
      expect(folded.turns).toBeGreaterThan(10);
    } finally {
      await store.close();
    }
  });

  it("reports a worker's failure as the typed error it was", async () => {
    const path = join(dir, "d.sqlite3");
    const store = SqliteStore.open(path, { create: true, vectorIndex: { minVectors: 50 } });
    try {
      await store.transaction(async (tx) => {
        for (let i = 0; i < 60; i++) await tx.replaceDocument(doc(i), [chunk(i)], [unit(i)]);
      });
      // The worker opens the file by its path: gone, it cannot, and says so with a code.
      rmSync(path);
      await expect(store.syncVectorIndex()).rejects.toMatchObject({ name: "GroundkitError", code: expect.any(String) });
    } finally {
      await store.close();
    }
  });
});
