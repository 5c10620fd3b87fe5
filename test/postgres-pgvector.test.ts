/**
 * Dense search on PostgreSQL with pgvector: PGlite 0.4.6 (pgvector 0.8.1)
 * served over the wire protocol by pglite-socket (test/support/pglite-server.ts),
 * so the store's own pg client, worker and SQL are what run. Against SQLite's
 * exact search on the same vectors: the same top k with scores equal to
 * 1e-6, unfiltered (through the HNSW index, which the server's statistics
 * show was used), filtered both through the graph (iterative scan) and
 * exactly, with an index scan that stops short, and after replacing and
 * deleting documents (a deleted chunk is never returned). The exact path on a
 * server without the extension is in test/postgres-parity.test.ts (Debian's
 * PostgreSQL); `collections copy` with vectors is in the last test here.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFilters, toChunkFilter } from "../src/retrieve/filters.js";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { ChunkFilter, NewChunk, ScoredChunk, Store, StoredDocument } from "../src/store/store.js";
import { grk, tempDir } from "./support/cli.js";
import { mulberry32 } from "./support/corpus.js";
import { passageChunk } from "./support/passage-chunk.js";
import { cosineSimilarity } from "./support/cosine.js";
import { startPglite, type TestPglite } from "./support/pglite-server.js";

const DIMS = 32;
const DOCS = 60;
const CHUNKS_PER_DOC = 10;
const K = 10;
/** Float32 rounding in sqlite-vec's l2 against float8 over the same float32 values. */
const SAME_SCORE = 1e-6;
const config = { kind: "postgres" as const, url_env: "GRK_PGV_URL", schema: "pgv" };

let pglite: TestPglite;
let work: { dir: string; cleanup: () => void };

beforeAll(async () => {
  pglite = await startPglite();
  process.env.GRK_PGV_URL = pglite.url;
  work = tempDir("grk-pgvector-");
}, 240_000);
afterAll(async () => {
  await pglite?.stop();
  work?.cleanup();
});

/** Clustered vectors (real embeddings are clustered; HNSW on uniform noise is not what it meets). */
function vector(seed: number): Float32Array {
  const rand = mulberry32(seed);
  const centre = mulberry32(1000 + (seed % 7));
  const v = new Float32Array(DIMS);
  for (let i = 0; i < DIMS; i++) v[i] = 2 * centre() - 1 + 0.6 * (2 * rand() - 1);
  return v;
}

function doc(i: number, version = 1): StoredDocument {
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
    metadata: { rel_path: `${i % 2 === 0 ? "even" : "odd"}/doc${i}.md`, ext: ".md", ...(i % 5 === 0 ? { tags: ["fifth"] } : {}) },
  };
}

function chunksOf(i: number, version = 1): { chunks: NewChunk[]; vectors: Float32Array[] } {
  const chunks: NewChunk[] = [];
  const vectors: Float32Array[] = [];
  for (let j = 0; j < CHUNKS_PER_DOC; j++) {
    chunks.push(passageChunk(i, j, version));
    vectors.push(vector(i * 1000 + j + version * 100_000));
  }
  return { chunks, vectors };
}

async function write(stores: Store[], i: number, version = 1): Promise<void> {
  const { chunks, vectors } = chunksOf(i, version);
  for (const s of stores) await s.replaceDocument(doc(i, version), chunks, vectors);
}

/** The same chunks, rank by rank, with scores equal to 1e-6 (exact ties may trade places). */
function expectSame(pg: ScoredChunk[], sqlite: ScoredChunk[], what: string): void {
  expect(pg.length, what).toBe(sqlite.length);
  for (let i = 0; i < sqlite.length; i++) {
    expect(Math.abs(pg[i]!.score - sqlite[i]!.score), what).toBeLessThanOrEqual(SAME_SCORE);
    if (pg[i]!.chunk_id !== sqlite[i]!.chunk_id) {
      const j = pg.findIndex((h) => h.chunk_id === sqlite[i]!.chunk_id);
      expect(j, `${what}: ${sqlite[i]!.chunk_id} missing`).toBeGreaterThanOrEqual(0);
      expect(Math.abs(pg[j]!.score - sqlite[i]!.score), what).toBeLessThanOrEqual(SAME_SCORE);
    }
  }
}

const filterOf = (f: string): ChunkFilter => toChunkFilter(parseFilters([f]))!;

const queries = Array.from({ length: 25 }, (_, n) => vector(7_000_000 + n));

async function hnswScans(): Promise<number> {
  await pglite.sql("SELECT pg_stat_force_next_flush()");
  return Number((await pglite.sql<{ n: string }>("SELECT idx_scan AS n FROM pg_stat_user_indexes WHERE indexrelname = 'vectors_hnsw'"))[0]?.n ?? 0);
}

describe("pgvector HNSW through the PostgreSQL wire protocol", () => {
  it("moves to HNSW at the writer's sync and answers like SQLite's exact search, filtered or not, after replaces and deletes", async () => {
    await pglite.useSchema("pgv.main");
    const sqlite = SqliteStore.open(join(work.dir, "exact.sqlite3"), { create: true, vectorIndex: { mode: "exact" } });
    // A low threshold so that filters on this small corpus reach the graph too.
    const pg = await PostgresStore.open(config, "main", { create: true, vectors: { filterExactMax: 50 } });
    try {
      for (let i = 0; i < DOCS; i++) await write([sqlite, pg], i);
      // Written before the extension is installed: an exact scan over real[], and status says why.
      expect(await pg.vectorIndexStatus()).toMatchObject({ kind: "exact", state: "none", reason: expect.stringContaining("extension vector is available but not installed") });
      for (const q of queries.slice(0, 3)) expectSame(await pg.searchVectors(q, K), await sqlite.searchVectors(q, K), "exact before the index");

      // The writer's step after an ingest: CREATE EXTENSION, column to vector(32), HNSW built.
      expect(await pg.syncVectorIndex()).toMatchObject({
        kind: "hnsw",
        library: "pgvector 0.8.1",
        state: "current",
        reason: null,
        vectors: DOCS * CHUNKS_PER_DOC,
        indexed_vectors: DOCS * CHUNKS_PER_DOC,
      });
      expect((await pglite.sql<{ t: string }>("SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = '\"pgv.main\".vectors'::regclass AND attname = 'embedding'"))[0]!.t).toBe(
        "public.vector(32)",
      );

      // On 600 rows the planner prefers a sequential scan (exact, and cheaper by its estimate); this session-wide
      // SET (the one PGlite session is shared) makes it walk the graph, which is what this test is about.
      await pglite.sql("SET enable_seqscan = off");
      const before = await hnswScans();
      for (const [n, q] of queries.entries()) expectSame(await pg.searchVectors(q, K), await sqlite.searchVectors(q, K), `query ${n}`);
      // The index answered them (not a sequential scan the planner preferred).
      expect((await hnswScans()) - before).toBeGreaterThanOrEqual(queries.length);

      // Filters: "odd/**" (300 vectors) and the tag (60) pass the threshold of 50 and walk the graph with an
      // iterative scan; one document's prefix (10) is searched exactly.
      const filters = ["path=odd/**", "tag=fifth", "path^=even/doc12.md", "path=even/**"];
      for (const f of filters) {
        const filter = filterOf(f);
        for (const q of queries.slice(0, 8)) expectSame(await pg.searchVectors(q, K, filter), await sqlite.searchVectors(q, K, filter), `${f}`);
      }

      // Replace every third document (new chunk ids and vectors) and delete every seventh: the old chunks
      // stay in the graph until vacuum, but are never returned.
      const gone = new Set<string>();
      for (let i = 0; i < DOCS; i += 3) {
        for (const c of chunksOf(i).chunks) gone.add(c.chunk_id);
        await write([sqlite, pg], i, 2);
      }
      for (let i = 1; i < DOCS; i += 7) {
        for (const c of [...chunksOf(i).chunks, ...chunksOf(i, 2).chunks]) gone.add(c.chunk_id);
        for (const s of [sqlite, pg]) await s.deleteDocument(`doc-${i}`);
      }
      // Queries aimed straight at removed vectors.
      const aimed = [0, 3, 1, 8].flatMap((i) => chunksOf(i).vectors.slice(0, 2));
      for (const q of [...queries, ...aimed]) {
        const hits = await pg.searchVectors(q, K);
        expect(hits.filter((h) => gone.has(h.chunk_id))).toEqual([]);
        expectSame(hits, await sqlite.searchVectors(q, K), "after replace and delete");
        const filtered = filterOf("path=odd/**");
        expectSame(await pg.searchVectors(q, K, filtered), await sqlite.searchVectors(q, K, filtered), "filtered after replace and delete");
      }
      expect(await pg.vectorIndexStatus()).toMatchObject({ kind: "hnsw", state: "current", vectors: await sqlite.countVectors() });
    } finally {
      await pglite.sql("RESET enable_seqscan");
      await pg.close();
      await sqlite.close();
    }
  }, 180_000);

  it("scans exactly when the index scan stops short, so a filtered search still finds every match", async () => {
    await pglite.useSchema("pgv.short");
    const sqlite = SqliteStore.open(join(work.dir, "short.sqlite3"), { create: true, vectorIndex: { mode: "exact" } });
    const pg = await PostgresStore.open(config, "short", { create: true, vectors: { filterExactMax: 5 } });
    // Three documents tagged "far" point away from cluster 0, where the queries are.
    const centre = vector(0);
    const far = (seed: number): Float32Array => {
      const rand = mulberry32(seed);
      return Float32Array.from(centre, (x) => -x + 0.2 * (2 * rand() - 1));
    };
    try {
      for (let i = 0; i < 40; i++) await write([sqlite, pg], i);
      for (let i = 100; i < 103; i++) {
        const { chunks } = chunksOf(i);
        const d = { ...doc(i), metadata: { rel_path: `far/doc${i}.md`, ext: ".md", tags: ["far"] } };
        const vectors = chunks.map((_, j) => far(i * 1000 + j));
        for (const s of [sqlite, pg]) await s.replaceDocument(d, chunks, vectors);
      }
      expect(await pg.syncVectorIndex()).toMatchObject({ kind: "hnsw", state: "current" });
      // The shared session: the graph must answer, and gives up after the first pass (1 tuple past it), so an
      // iterative scan returns only what that pass visited near the query: none of the far chunks.
      await pglite.sql("SET enable_seqscan = off");
      await pglite.sql("SET hnsw.max_scan_tuples = 1");
      try {
        const filter = filterOf("tag=far");
        for (const n of [0, 7, 14]) {
          const q = vector(n);
          const hits = await pg.searchVectors(q, K, filter);
          expect(hits).toHaveLength(K);
          expectSame(hits, await sqlite.searchVectors(q, K, filter), "short index scan");
        }
      } finally {
        await pglite.sql("RESET hnsw.max_scan_tuples");
        await pglite.sql("RESET enable_seqscan");
      }
    } finally {
      await pg.close();
      await sqlite.close();
    }
  }, 120_000);
  it("re-embedding to another width retypes the column and builds the index again; a wrong width is refused", async () => {
    await pglite.useSchema("pgv.reembed");
    const pg = await PostgresStore.open(config, "reembed", { create: true });
    try {
      for (let i = 0; i < 5; i++) await write([pg], i);
      expect(await pg.syncVectorIndex()).toMatchObject({ kind: "hnsw", state: "current", vectors: 50 });
      const narrow = (seed: number): Float32Array => vector(seed).slice(0, 16);
      const rows = (await pg.allChunkTexts()).map((c) => ({ rowid: c.rowid, vector: narrow(c.rowid) }));
      await pg.replaceAllVectors(rows, { embedding_dimensions: "16" });
      // Swapped; the index goes with the old vectors and searches scan exactly until the writer's sync.
      expect(await pg.vectorIndexStatus()).toMatchObject({ kind: "hnsw", state: "missing", reason: expect.stringContaining("not built yet"), vectors: 50 });
      const q = narrow(3);
      const exact = await pg.searchVectors(q, 5);
      const expected = rows
        .map((r) => ({ rowid: r.rowid, score: cosineSimilarity(r.vector, q) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 5);
      expect(exact.map((h) => h.score)).toEqual(expected.map((e) => expect.closeTo(e.score, 6)));
      expect(await pg.syncVectorIndex()).toMatchObject({ kind: "hnsw", state: "current", vectors: 50 });
      expect((await pglite.sql<{ t: string }>("SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = '\"pgv.reembed\".vectors'::regclass AND attname = 'embedding'"))[0]!.t).toBe(
        "public.vector(16)",
      );
      expect((await pg.searchVectors(q, 5)).map((h) => h.chunk_id)).toEqual(exact.map((h) => h.chunk_id));
      // Emptied, the vector(16) column still refuses 32-dimensional vectors with the typed error.
      for (let i = 0; i < 5; i++) await pg.deleteDocument(`doc-${i}`);
      await expect(write([pg], 9)).rejects.toThrow(expect.objectContaining({ code: "EMBEDDING_MISMATCH" }));
    } finally {
      await pg.close();
    }
  }, 120_000);

  it("`collections copy` sqlite -> postgres (pgvector) -> sqlite keeps dense results and stored citations verifying", async () => {
    const dir = join(work.dir, "cli");
    const models = join(dir, "models");
    mkdirSync(join(dir, "docs", "guides"), { recursive: true });
    execFileSync(process.execPath, [join(process.cwd(), "scripts", "make-tiny-models.mjs"), models], { stdio: "pipe" });
    const files: Record<string, string> = {
      "guides/backup.md": "# Backups\n\nNightly snapshots are copied to object storage and restored with the restore command.\n",
      "guides/tls.md": "# Certificates\n\nTLS certificates renew automatically thirty days before they expire.\n",
      "cache.md": "# Cache\n\nThe cache keeps rendered pages in memory and evicts the least recently used entries.\n",
      "people.txt": "The on-call engineer answers pages within five minutes and restores snapshots.\n",
    };
    for (const [rel, text] of Object.entries(files)) writeFileSync(join(dir, "docs", rel), text);
    const embedding = { provider: "onnx", model_dir: join(models, "tiny-embedder") };
    writeFileSync(join(dir, "sqlite.json"), JSON.stringify({ embedding }));
    writeFileSync(join(dir, "pg.json"), JSON.stringify({ embedding, store: config }));
    const run = (args: string[]) => {
      const r = grk(args, { cwd: dir, env: { GRK_PGV_URL: pglite.url } });
      expect(r.code, `grk ${args.join(" ")}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };
    type Hits = { results: Array<{ chunk_id: string; score: number }> };
    const dense = (cfg: string, name: string): Hits =>
      JSON.parse(run(["search", "snapshots restored from storage", "--mode", "dense", "--json", "--config", cfg, "--collection", name])) as Hits;
    const expectSameHits = (x: Hits, y: Hits): void => {
      expect(y.results.map((h) => h.chunk_id)).toEqual(x.results.map((h) => h.chunk_id));
      for (let i = 0; i < x.results.length; i++) expect(Math.abs(y.results[i]!.score - x.results[i]!.score)).toBeLessThanOrEqual(SAME_SCORE);
    };

    run(["ingest", "docs", "--dense", "--json", "--no-progress", "--config", "sqlite.json", "--collection", "orig"]);
    const original = dense("sqlite.json", "orig");
    expect(original.results.length).toBeGreaterThan(0);
    writeFileSync(join(dir, "hits.json"), JSON.stringify(original));

    await pglite.useSchema("pgv.moved");
    expect(JSON.parse(run(["collections", "copy", "--from", "sqlite:orig", "--to", "postgres:moved", "--json", "--config", "pg.json"]))).toMatchObject({
      documents: 4,
      vectors: 4,
    });
    // The copy ends with the writer's sync: the target is on pgvector HNSW, and says so.
    const status = JSON.parse(run(["status", "--json", "--config", "pg.json", "--collection", "moved"])) as { vector_index: unknown };
    expect(status.vector_index).toMatchObject({ kind: "hnsw", library: "pgvector 0.8.1", state: "current", vectors: 4 });
    expect(run(["status", "--config", "pg.json", "--collection", "moved"])).toMatch(/vector index hnsw \(pgvector 0\.8\.1\): 4 vectors, [\d.]+ MiB, current/);
    await pglite.sql("SET enable_seqscan = off");
    try {
      expectSameHits(original, dense("pg.json", "moved"));
    } finally {
      await pglite.sql("RESET enable_seqscan");
    }
    const verdicts = (cfg: string, name: string): string[] =>
      (JSON.parse(run(["verify", "hits.json", "--json", "--config", cfg, "--collection", name])) as Array<{ verdict: string }>).map((v) => v.verdict);
    expect(verdicts("pg.json", "moved")).toEqual(original.results.map(() => "verified"));

    run(["collections", "copy", "--from", "postgres:moved", "--to", "sqlite:back", "--json", "--config", "pg.json"]);
    expectSameHits(original, dense("sqlite.json", "back"));
    expect(verdicts("sqlite.json", "back")).toEqual(original.results.map(() => "verified"));
  }, 180_000);
});
