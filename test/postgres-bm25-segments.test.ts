/**
 * The PostgreSQL BM25 engine of ADR 0020 (segments in the SQLite engine's
 * block format, scored in the process with MaxScore/block-max) ranks exactly
 * as the SQLite engine: the top 10 of every golden query (evals/) and of
 * generated queries over a generated corpus, scores equal to 1e-9, with every
 * posting in the tail, in one segment, in several, after deletes (tombstones),
 * with a filter, and after a rebuild. Collections are written through the
 * library; the engine reads them over a real pg.Pool on a real server.
 */
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type Collection } from "../src/collection/index.js";
import { analyzeQuery } from "../src/analysis/analyzer.js";
import { PgLexicalSearch, type AllowedChunksSql } from "../src/store/postgres/lexical-search.js";
import { syncLexicalSegments } from "../src/store/postgres/lexical-segments.js";
import { searchLexicalRows } from "../src/store/postgres/lexical-rows.js";
import { PATH_OF_DOCUMENT } from "../src/store/postgres/filter-sql.js";
import { tempDir } from "./support/cli.js";
import { mulberry32, writeCorpus } from "./support/corpus.js";
import { openPool, type TestPool } from "./support/pg-pool.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";
import { expectSameRanking, type Ranked } from "./support/same-ranking.js";

let server: TestPostgres;
let work: { dir: string; cleanup: () => void };
const store = { kind: "postgres" as const, url_env: "GRK_SEG_PG_URL", schema: "seg" };
const pools: TestPool[] = [];

beforeAll(async () => {
  server = await startPostgres();
  process.env.GRK_SEG_PG_URL = server.url;
  work = tempDir("grk-pg-seg-");
});
afterAll(async () => {
  for (const p of pools) await p.end();
  await server?.stop();
  work?.cleanup();
});

function poolFor(name: string): TestPool {
  const pool = openPool(server.url, `seg.${name}`);
  pools.push(pool);
  return pool;
}

/** The engine's top k, with the hits' rows as the store reads them (lexical-rows.ts). */
async function engineTop(pool: TestPool, engine: PgLexicalSearch, q: string, k: number, allowed?: AllowedChunksSql): Promise<Ranked[]> {
  const hits = await searchLexicalRows(pool, engine, analyzeQuery(q), k, allowed);
  return hits.map((h) => ({ chunk_id: h.chunk_id, score: h.score }));
}

async function expectSame(sqlite: Collection, pool: TestPool, engine: PgLexicalSearch, queries: string[]): Promise<void> {
  for (const q of queries) expectSameRanking(await sqlite.retrieve(q, 10), await engineTop(pool, engine, q, 10), q);
}

async function segmentCount(pool: TestPool): Promise<{ n: number; dead: number }> {
  return (await pool.query<{ n: number; dead: number }>("SELECT count(*)::int AS n, coalesce(sum(dead), 0)::int AS dead FROM bm25_segments")).rows[0]!;
}

async function sync(pool: TestPool, policy: Parameters<typeof syncLexicalSegments>[1]) {
  const client = await pool.connect();
  try {
    return await syncLexicalSegments(client, policy);
  } finally {
    client.release();
  }
}

describe("PostgreSQL BM25 segments rank as the SQLite engine", () => {
  it("on the golden corpus: all postings in the tail, then in one segment", async () => {
    const input = join(process.cwd(), "evals", "corpus");
    const sqlite = await openCollection({ indexDir: join(work.dir, "idx-golden"), collection: "golden", create: true });
    const postgres = await openCollection({ indexDir: join(work.dir, "pg-golden"), collection: "golden", create: true, store });
    try {
      for (const col of [sqlite, postgres]) expect((await col.ingest([input])).failed).toEqual([]);
      const queries = readFileSync(join(process.cwd(), "evals", "judgments.jsonl"), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => (JSON.parse(l) as { query: string }).query);
      expect(queries.length).toBeGreaterThan(20);
      const pool = poolFor("golden");
      const engine = new PgLexicalSearch();
      expect((await segmentCount(pool)).n).toBe(0);
      await expectSame(sqlite, pool, engine, queries);
      expect(await sync(pool, {})).toMatchObject({ built: "none" });
      const built = await sync(pool, { flushTail: true });
      expect(built).toMatchObject({ built: "tail", segments: 1 });
      expect(built.generation).toBeGreaterThan(0);
      await expectSame(sqlite, pool, engine, queries);
      // Again from the process's caches (nothing re-sent), and from a cold engine.
      await expectSame(sqlite, pool, engine, queries);
      await expectSame(sqlite, pool, new PgLexicalSearch(0), queries);
    } finally {
      await sqlite.close();
      await postgres.close();
    }
  }, 120_000);

  it("on a generated corpus: several segments and a tail, after deletes, with a filter, and rebuilt", async () => {
    const dir = join(work.dir, "generated");
    writeCorpus(dir, 500);
    const sqlite = await openCollection({ indexDir: join(work.dir, "idx-gen"), collection: "gen", create: true });
    const postgres = await openCollection({ indexDir: join(work.dir, "pg-gen"), collection: "gen", create: true, store });
    const pool = poolFor("gen");
    const engine = new PgLexicalSearch();
    const words = "index citation source verify chunk offset passage retrieval ranking query engine backup restore cluster replica latency vector lexical snapshot schema migration commit".split(" ");
    const rand = mulberry32(23);
    const queries = Array.from({ length: 40 }, () =>
      Array.from({ length: 1 + Math.floor(rand() * 5) }, () => words[Math.floor(rand() * words.length)]!).join(" "),
    );
    queries.push("marker7x1 marker8x1 citation", "section document", "index index citation");
    try {
      // Parts 0-2 become three segments, part 3 a fourth, part 4 stays in the tail.
      for (const part of [0, 1, 2, 3, 4]) {
        for (const col of [sqlite, postgres]) expect((await col.ingest([join(dir, `part${part}`)], { chunkSize: 260, chunkOverlap: 40 })).failed).toEqual([]);
        if (part < 4) expect(await sync(pool, { flushTail: true })).toMatchObject({ built: "tail", segments: part + 1 });
      }
      expect((await sqlite.status()).chunks).toBeGreaterThan(1000);
      await expectSame(sqlite, pool, engine, queries);

      // Deleting documents tombstones their chunks in the segments and changes N, avgdl and df on both alike.
      const victims = new Set<string>();
      for (const q of ["marker3x1 marker4x1 marker5x1", "citation replica", "index"]) {
        for (const h of await sqlite.retrieve(q, 4)) victims.add((await sqlite.getChunk(h.chunk_id)).document_id);
      }
      for (const col of [sqlite, postgres]) for (const doc of victims) expect(await col.deleteDocument(doc)).toBe(true);
      expect((await segmentCount(pool)).dead).toBeGreaterThan(0);
      await expectSame(sqlite, pool, engine, queries);

      const allowed: AllowedChunksSql = {
        sql: `SELECT c.id FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE starts_with(${PATH_OF_DOCUMENT}, $1)`,
        params: ["doc2"],
      };
      for (const q of queries.slice(0, 10)) {
        const x = await sqlite.search(q, { topK: 10, filters: ["path^=doc2"] });
        expect(x.length).toBeGreaterThan(0);
        expectSameRanking(x, await engineTop(pool, engine, q, 10, allowed), `${q} path^=doc2`);
      }

      // A merge (more segments than the merge factor) rebuilds one segment from the live postings.
      expect(await sync(pool, { flushTail: true, mergeFactor: 4 })).toMatchObject({ built: "all", segments: 1 });
      expect(await segmentCount(pool)).toEqual({ n: 1, dead: 0 });
      await expectSame(sqlite, pool, engine, queries);
    } finally {
      await sqlite.close();
      await postgres.close();
    }
  }, 300_000);
});
