/**
 * Several vectors per chunk (window policy "max", docs/decisions/0032-max-over-windows.md) in every store:
 * SQLite's exact scan, SQLite's HNSW index, PostgreSQL without pgvector (Debian's server: an exact scan in SQL)
 * and with it (PGlite + pgvector's HNSW over the wire protocol). Each answers like an oracle computed here: a
 * chunk's score is its best window's cosine, each chunk once, filtered or not; after a document is replaced with
 * fewer windows, deleted, or its vectors rewritten, nothing of the old windows is found, the counts say how many
 * vectors and how many chunks there are, and `grk doctor`'s coverage sees no orphan. A PostgreSQL collection
 * from before windows (schema version 2) is migrated and keeps its vectors as first windows.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFilters, toChunkFilter } from "../src/retrieve/filters.js";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import { SCHEMA_VERSION } from "../src/store/postgres/schema.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { vectorCoverage } from "../src/store/sqlite/row-health.js";
import type { ChunkFilter, NewChunk, Store, StoredDocument } from "../src/store/store.js";
import { tempDir } from "./support/cli.js";
import { mulberry32 } from "./support/corpus.js";
import { passageChunk } from "./support/passage-chunk.js";
import { cosineSimilarity } from "./support/cosine.js";
import { startPglite, type TestPglite } from "./support/pglite-server.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";

const DIMS = 24;
const DOCS = 30;
const CHUNKS_PER_DOC = 4;
const K = 8;
/** float32 storage and sqlite-vec's float32 l2 against the oracle's double cosine. */
const SAME_SCORE = 1e-5;

let work: { dir: string; cleanup: () => void };
let pg: TestPostgres;
let pglite: TestPglite;

beforeAll(async () => {
  work = tempDir("grk-windows-");
  pg = await startPostgres();
  process.env.GRK_WIN_PG_URL = pg.url;
  pglite = await startPglite();
  process.env.GRK_WIN_PGV_URL = pglite.url;
}, 240_000);
afterAll(async () => {
  await pg?.stop();
  await pglite?.stop();
  work?.cleanup();
});

function vector(seed: number): Float32Array {
  const rand = mulberry32(seed);
  const centre = mulberry32(1000 + (seed % 5));
  return Float32Array.from({ length: DIMS }, () => 2 * centre() - 1 + 0.7 * (2 * rand() - 1));
}

function doc(i: number, version: number): StoredDocument {
  return {
    document_id: `doc-${i}`,
    source: `/corpus/${i % 2 === 0 ? "even" : "odd"}/doc${i}.md`,
    source_class: "text",
    extractor: null,
    base_dir: "/corpus",
    fingerprint: `fp${i}.${version}`,
    content_hash: `h${i}.${version}`,
    content_length: 1000,
    ingested_at: "2026-01-01T00:00:00.000Z",
    metadata: { rel_path: `${i % 2 === 0 ? "even" : "odd"}/doc${i}.md`, ext: ".md" },
  };
}

/** A document's chunks, each with 1 to 4 window vectors (version 2 has fewer windows than version 1). */
function chunksOf(i: number, version: number): { chunks: NewChunk[]; windows: Float32Array[][] } {
  const chunks: NewChunk[] = [];
  const windows: Float32Array[][] = [];
  for (let j = 0; j < CHUNKS_PER_DOC; j++) {
    chunks.push(passageChunk(i, j, version));
    const count = version === 1 ? 1 + ((i + j) % 4) : 1 + ((i + j) % 2);
    windows.push(Array.from({ length: count }, (_, w) => vector(i * 10_000 + j * 100 + w + version * 1_000_000)));
  }
  return { chunks, windows };
}

/** What every store must answer: chunks by their best window's cosine, descending, each once. */
class Oracle {
  readonly byChunk = new Map<string, { windows: Float32Array[]; even: boolean }>();
  write(i: number, version: number): void {
    for (const id of [...this.byChunk.keys()]) if (id.startsWith(`c-${i}-`)) this.byChunk.delete(id);
    const { chunks, windows } = chunksOf(i, version);
    chunks.forEach((c, j) => this.byChunk.set(c.chunk_id, { windows: windows[j]!, even: i % 2 === 0 }));
  }
  delete(i: number): void {
    for (const id of [...this.byChunk.keys()]) if (id.startsWith(`c-${i}-`)) this.byChunk.delete(id);
  }
  vectors(): number {
    return [...this.byChunk.values()].reduce((n, c) => n + c.windows.length, 0);
  }
  top(q: Float32Array, k: number, evenOnly = false): Array<{ chunk_id: string; score: number }> {
    return [...this.byChunk.entries()]
      .filter(([, c]) => !evenOnly || c.even)
      .map(([chunk_id, c]) => ({ chunk_id, score: Math.max(...c.windows.map((w) => cosineSimilarity(q, w))) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, k);
  }
}

const evenFilter: ChunkFilter = toChunkFilter(parseFilters(["path=even/**"]))!;
const queries = Array.from({ length: 12 }, (_, n) => vector(9_000_000 + n));

async function expectLikeOracle(store: Store, oracle: Oracle, what: string): Promise<void> {
  for (const [qi, q] of queries.entries()) {
    for (const evenOnly of [false, true]) {
      const got = await store.searchVectors(q, K, evenOnly ? evenFilter : undefined);
      const want = oracle.top(q, K, evenOnly);
      const label = `${what}, query ${qi}${evenOnly ? ", filtered" : ""}`;
      expect(new Set(got.map((h) => h.chunk_id)).size, `${label}: each chunk once`).toBe(got.length);
      expect(got.length, label).toBe(want.length);
      got.forEach((h, r) => {
        expect(Math.abs(h.score - want[r]!.score), `${label}, rank ${r}`).toBeLessThanOrEqual(SAME_SCORE);
        // Near ties may trade places; a chunk the oracle ranks elsewhere must score the same there.
        const own = oracle.top(q, oracle.byChunk.size, evenOnly).find((w) => w.chunk_id === h.chunk_id);
        expect(Math.abs(h.score - own!.score), `${label}: ${h.chunk_id}`).toBeLessThanOrEqual(SAME_SCORE);
      });
    }
  }
}

async function exercise(store: Store, what: string, sync: () => Promise<unknown>): Promise<void> {
  const oracle = new Oracle();
  for (let i = 0; i < DOCS; i++) {
    const { chunks, windows } = chunksOf(i, 1);
    await store.replaceDocument(doc(i, 1), chunks, windows);
    oracle.write(i, 1);
  }
  await sync();
  expect(await store.countVectors()).toBe(oracle.vectors());
  expect(await store.countChunksWithVectors()).toBe(DOCS * CHUNKS_PER_DOC);
  expect(await store.chunksMissingVectors(10)).toEqual([]);
  await expectLikeOracle(store, oracle, `${what} written`);

  // Incremental ingest: a changed document comes back with fewer windows; a removed one takes all of its windows.
  for (let i = 0; i < DOCS; i += 3) {
    const { chunks, windows } = chunksOf(i, 2);
    await store.replaceDocument(doc(i, 2), chunks, windows);
    oracle.write(i, 2);
  }
  for (let i = 1; i < DOCS; i += 5) {
    await store.deleteDocument(`doc-${i}`);
    oracle.delete(i);
  }
  await sync();
  expect(await store.countVectors()).toBe(oracle.vectors());
  expect(await store.countChunksWithVectors()).toBe(oracle.byChunk.size);
  await expectLikeOracle(store, oracle, `${what} after replaces and deletes`);

  // A copy reads every window back, first window first.
  const chunks = await store.chunksOf("doc-2");
  const stored = await store.vectorsOf(chunks.map((c) => c.rowid));
  chunks.forEach((c) => {
    const want = oracle.byChunk.get(c.chunk_id)!.windows;
    expect(stored.get(c.rowid)!.length).toBe(want.length);
    stored.get(c.rowid)!.forEach((v, w) => expect(cosineSimilarity(v, want[w]!)).toBeGreaterThan(1 - 1e-6));
  });

  // Backfill or re-embedding of some chunks: their windows are replaced, never added to.
  const again = await store.chunksOf("doc-4");
  const fresh = again.map((_, j) => [vector(5_000_000 + j)]);
  await store.writeVectors(again.map((c, j) => ({ rowid: c.rowid, vector: fresh[j]! })));
  again.forEach((c, j) => oracle.byChunk.set(c.chunk_id, { windows: fresh[j]!, even: true }));
  await sync();
  expect(await store.countVectors()).toBe(oracle.vectors());
  await expectLikeOracle(store, oracle, `${what} after rewriting vectors`);

  // Re-embedding with one vector per chunk (another window policy) replaces every window.
  const all = await store.allChunkTexts();
  await store.replaceAllVectors(
    all.map((c) => ({ rowid: c.rowid, vector: vector(c.rowid + 77) })),
    { embedding_identity: "{}" },
  );
  await sync();
  expect(await store.countVectors()).toBe(all.length);
  expect(await store.countChunksWithVectors()).toBe(all.length);
}

describe("one vector per window in every store", () => {
  it("SQLite, exact scan", async () => {
    const store = SqliteStore.open(join(work.dir, "exact.sqlite3"), { create: true, vectorIndex: { mode: "exact" } });
    try {
      await exercise(store, "sqlite exact", async () => {
        const cov = vectorCoverage(store.engine.db);
        expect(cov.orphans).toBe(0);
        expect(cov.missing).toBe(0);
        expect(cov.vectors).toBeGreaterThanOrEqual(cov.chunks_with_vectors);
      });
    } finally {
      await store.close();
    }
  });

  it("SQLite, HNSW index (every search through the graph, kept current by each writer's sync)", async () => {
    const store = SqliteStore.open(join(work.dir, "ann.sqlite3"), { create: true, vectorIndex: { minVectors: 1, filterExactMax: 0 } });
    try {
      await exercise(store, "sqlite hnsw", async () => {
        expect(await store.syncVectorIndex()).toMatchObject({ kind: "hnsw", state: "current" });
      });
    } finally {
      await store.close();
    }
  });

  it("PostgreSQL without pgvector (exact scan in SQL)", async () => {
    const store = await PostgresStore.open({ kind: "postgres", url_env: "GRK_WIN_PG_URL", schema: "win" }, "main", { create: true });
    try {
      await exercise(store, "postgres exact", () => store.syncVectorIndex());
    } finally {
      await store.close();
    }
  });

  it("PostgreSQL with pgvector's HNSW index", async () => {
    await pglite.useSchema("pgw.main");
    const config = { kind: "postgres" as const, url_env: "GRK_WIN_PGV_URL", schema: "pgw" };
    const store = await PostgresStore.open(config, "main", { create: true, vectors: { filterExactMax: 10 } });
    try {
      await exercise(store, "postgres hnsw", async () => {
        expect(await store.syncVectorIndex()).toMatchObject({ kind: "hnsw", state: "current" });
      });
    } finally {
      await store.close();
    }
  });

  it("migrates a PostgreSQL collection from before windows: its vectors stay, as first windows", async () => {
    const config = { kind: "postgres" as const, url_env: "GRK_WIN_PG_URL", schema: "old" };
    let store = await PostgresStore.open(config, "main", { create: true });
    const { chunks } = chunksOf(0, 1);
    const single = chunks.map((_, j) => vector(300 + j));
    await store.replaceDocument(doc(0, 1), chunks, single);
    await store.close();
    // Schema version 2 as it was: one vector per chunk, keyed by the chunk alone.
    const psql = readdirSync("/usr/lib/postgresql").map((v) => join("/usr/lib/postgresql", v, "bin", "psql")).find(existsSync)!;
    execFileSync(psql, [pg.url, "-v", "ON_ERROR_STOP=1", "-c", `SET search_path TO "old.main";
      ALTER TABLE vectors DROP CONSTRAINT vectors_pkey; ALTER TABLE vectors DROP COLUMN win; ALTER TABLE vectors ADD PRIMARY KEY (chunk);
      DROP TABLE history_spans, history_blocks, history_versions;
      UPDATE meta SET value = '2' WHERE key = 'schema_version';`], { stdio: "pipe" });
    store = await PostgresStore.open(config, "main", { create: false });
    try {
      expect((await store.stats()).schema_version).toBe(SCHEMA_VERSION); // migrated to the current schema
      expect(await store.countVectors()).toBe(CHUNKS_PER_DOC);
      expect(await store.countChunksWithVectors()).toBe(CHUNKS_PER_DOC);
      const hits = await store.searchVectors(single[2]!, 1);
      expect(hits[0]).toMatchObject({ chunk_id: chunks[2]!.chunk_id });
      expect(hits[0]!.score).toBeGreaterThan(1 - 1e-6);
      // New windows can be added to the migrated table.
      const rows = await store.chunksOf("doc-0");
      await store.writeVectors([{ rowid: rows[0]!.rowid, vector: [vector(1), vector(2)] }]);
      expect(await store.countVectors()).toBe(CHUNKS_PER_DOC + 1);
    } finally {
      await store.close();
    }
  });
});
