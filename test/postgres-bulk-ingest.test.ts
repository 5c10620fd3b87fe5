/**
 * The PostgreSQL store's batched writes and its search hot path, against a
 * real server: a write batch goes in as a few statements for all its
 * documents, yet a batch that fails mid-way (its connection killed by the
 * server while the rows go in) leaves every document at its previous state,
 * and a document the server refuses fails alone. BM25 hits' rows come from
 * this process's cache when it holds them, which never serves the rows of a
 * dropped collection to the collection made again under its name.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeQuery } from "../src/analysis/analyzer.js";
import { openCollection, type Collection } from "../src/collection/index.js";
import { syncLexicalSegments } from "../src/store/postgres/lexical-segments.js";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import { tempDir } from "./support/cli.js";
import { openPool, type TestPool } from "./support/pg-pool.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";
import { expectSameRanking } from "./support/same-ranking.js";

let pg: TestPostgres;
let work: { dir: string; cleanup: () => void };
const store = { kind: "postgres" as const, url_env: "GRK_BULK_PG_URL", schema: "bulk" };
const pools: TestPool[] = [];

beforeAll(async () => {
  pg = await startPostgres();
  process.env.GRK_BULK_PG_URL = pg.url;
  work = tempDir("grk-pg-bulk-");
});
afterAll(async () => {
  for (const p of pools) await p.end();
  await pg?.stop().catch(() => {});
  work?.cleanup();
});

function pool(collection: string): TestPool {
  const p = openPool(pg.url, `bulk.${collection}`);
  pools.push(p);
  return p;
}

/** `n` small documents; document i says `word` (and its own marker), so a search tells versions apart. */
function writeDocs(dir: string, n: number, word: string, extra: Record<string, string> = {}): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) {
    writeFileSync(join(dir, `doc${i}.md`), `# Note ${i}\n\nThe ${word} ledger entry ${i} records marker${i}q and the ${word} totals.\n`);
  }
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text);
}

async function counts(p: TestPool): Promise<{ docs: number; chunks: number; postings: number; stats_docs: number; stats_len: number }> {
  return (
    await p.query<{ docs: number; chunks: number; postings: number; stats_docs: number; stats_len: number }>(
      `SELECT (SELECT count(*) FROM documents)::int AS docs, (SELECT count(*) FROM chunks)::int AS chunks,
         (SELECT count(*) FROM bm25_postings)::int AS postings, s.docs::int AS stats_docs, s.total_len::int AS stats_len FROM bm25_stats s`,
    )
  ).rows[0]!;
}

async function hitsFor(col: Collection, query: string): Promise<number> {
  return (await col.retrieve(query, 50)).length;
}

describe("PostgreSQL batched writes", () => {
  it("a batch whose connection dies mid-write leaves every document at its previous state", async () => {
    const dir = join(work.dir, "crash");
    writeDocs(dir, 40, "walnut");
    const col = await openCollection({ indexDir: join(work.dir, "idx-crash"), collection: "crash", create: true, store });
    const p = pool("crash");
    try {
      expect((await col.ingest([dir])).failed).toEqual([]);
      const before = await counts(p);
      expect(before).toMatchObject({ docs: 40, chunks: 40, stats_docs: 40 });
      expect(await hitsFor(col, "walnut")).toBe(40);
      // The server ends the writing connection when the batch's rows reach this document.
      await p.query(`CREATE FUNCTION crash_here() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.source LIKE '%doc33.md' THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF; RETURN NEW; END $$`);
      await p.query("CREATE TRIGGER crash_here BEFORE INSERT ON documents FOR EACH ROW EXECUTE FUNCTION crash_here()");
      writeDocs(dir, 40, "hazel");
      const failed = await col.ingest([dir]);
      expect(failed.failed.length).toBeGreaterThan(0);
      expect(failed.indexed).toBe(0);
      // Nothing of the failed batch: the old rows, postings and statistics, whole.
      expect(await counts(p)).toEqual(before);
      expect(await hitsFor(col, "hazel")).toBe(0);
      expect(await hitsFor(col, "walnut")).toBe(40);
      await p.query("DROP TRIGGER crash_here ON documents");
      const again = await col.ingest([dir]);
      expect(again.failed).toEqual([]);
      expect(again.indexed).toBe(40);
      expect(await hitsFor(col, "walnut")).toBe(0);
      expect(await hitsFor(col, "hazel")).toBe(40);
      expect(await counts(p)).toMatchObject({ docs: 40, chunks: 40, stats_docs: 40 });
    } finally {
      await col.close();
    }
  }, 120_000);

  it("a healthy batch goes in as one statement for all its documents, not document by document", async () => {
    // A broken batch statement is not an error anyone sees: the batch is written again one document at a
    // time, and every document still arrives. Only the number of INSERT statements tells the two apart.
    const dir = join(work.dir, "bulk");
    writeDocs(dir, 40, "cedar");
    const col = await openCollection({ indexDir: join(work.dir, "idx-bulk"), collection: "bulk", create: true, store });
    const p = pool("bulk");
    try {
      await p.query("CREATE TABLE insert_statements (n int NOT NULL)");
      await p.query(`CREATE FUNCTION count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO insert_statements VALUES (1); RETURN NULL; END $$`);
      await p.query("CREATE TRIGGER count_insert AFTER INSERT ON documents FOR EACH STATEMENT EXECUTE FUNCTION count_insert()");
      const r = await col.ingest([dir]);
      expect(r.failed).toEqual([]);
      expect(r.indexed).toBe(40);
      const { rows } = await p.query<{ n: number }>("SELECT count(*)::int AS n FROM insert_statements");
      // 40 documents make one batch (a few if the walk is slow: a batch is also cut after a second);
      // document by document they would be 40 statements.
      expect(rows[0]!.n).toBeLessThanOrEqual(8);
      expect(await hitsFor(col, "cedar")).toBe(40);
    } finally {
      await col.close();
    }
  }, 120_000);

  it("a document the server refuses fails alone; the rest of its batch is written", async () => {
    const dir = join(work.dir, "poison");
    writeDocs(dir, 30, "maple");
    const col = await openCollection({ indexDir: join(work.dir, "idx-poison"), collection: "poison", create: true, store });
    const p = pool("poison");
    try {
      expect((await col.ingest([dir])).failed).toEqual([]);
      await p.query(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.source LIKE '%doc7.md' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
      await p.query("CREATE TRIGGER refuse BEFORE INSERT ON documents FOR EACH ROW EXECUTE FUNCTION refuse()");
      writeDocs(dir, 30, "birch");
      const r = await col.ingest([dir]);
      expect(r.failed.map((f) => f.source.endsWith("doc7.md"))).toEqual([true]);
      expect(r.indexed).toBe(29);
      expect(await hitsFor(col, "birch")).toBe(29);
      // doc7 keeps its old state (its replacement rolled back alone).
      expect((await col.retrieve("maple marker7q", 5))[0]?.source.endsWith("doc7.md")).toBe(true);
      expect(await counts(p)).toMatchObject({ docs: 30, chunks: 30, stats_docs: 30 });
    } finally {
      await col.close();
    }
  }, 120_000);
});

describe("PostgreSQL postings follow their chunks (schema 6)", () => {
  it("a collection written at schema 5 upgrades; replaced and removed documents take their postings and tombstone their segment", async () => {
    const dir = join(work.dir, "follow");
    writeDocs(dir, 12, "poplar");
    const opts = { indexDir: join(work.dir, "idx-follow"), collection: "follow", create: true, store };
    let col = await openCollection(opts);
    const p = pool("follow");
    try {
      expect((await col.ingest([dir])).failed).toEqual([]);
      // Every chunk in a segment, so a removal must tombstone it there.
      const client = await p.connect();
      try {
        expect((await syncLexicalSegments(client, { flushTail: true })).built).toBe("tail");
      } finally {
        client.release();
      }
      await col.close();
      // What schema 5 had: the foreign key, no trigger.
      await p.query("DROP TRIGGER bm25_postings_of_removed_chunks ON chunks");
      await p.query("DROP FUNCTION bm25_postings_of_removed_chunks()");
      await p.query("ALTER TABLE bm25_postings ADD CONSTRAINT bm25_postings_chunk_fkey FOREIGN KEY (chunk) REFERENCES chunks(id) ON DELETE CASCADE");
      await p.query("UPDATE meta SET value = '5' WHERE key = 'schema_version'");
      col = await openCollection({ ...opts, create: false });
      const shape = (
        await p.query<{ fk: number; trigger: number; version: string }>(
          `SELECT (SELECT count(*) FROM pg_constraint WHERE conrelid = 'bm25_postings'::regclass AND contype = 'f')::int AS fk,
             (SELECT count(*) FROM pg_trigger WHERE tgrelid = 'chunks'::regclass AND tgname = 'bm25_postings_of_removed_chunks')::int AS trigger,
             (SELECT value FROM meta WHERE key = 'schema_version') AS version`,
        )
      ).rows[0]!;
      expect(shape).toEqual({ fk: 0, trigger: 1, version: "6" });
      // One document replaced, one removed (few enough that the ingest's segment sync keeps the segment).
      writeDocs(dir, 1, "aspen");
      rmSync(join(dir, "doc11.md"));
      const r = await col.ingest([dir]);
      expect(r).toMatchObject({ indexed: 1, removed: 1 });
      expect(r.failed).toEqual([]);
      const orphans = await p.query<{ n: number }>("SELECT count(*)::int AS n FROM bm25_postings x WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = x.chunk)");
      expect(orphans.rows[0]!.n).toBe(0);
      expect(await counts(p)).toMatchObject({ docs: 11, chunks: 11, stats_docs: 11 });
      const dead = await p.query<{ dead: number; listed: number }>(
        "SELECT (SELECT sum(dead) FROM bm25_segments)::int AS dead, (SELECT count(*) FROM bm25_segment_dead)::int AS listed",
      );
      expect(dead.rows[0]).toEqual({ dead: 2, listed: 2 });
      expect(await hitsFor(col, "poplar")).toBe(10);
      expect(await hitsFor(col, "aspen")).toBe(1);
      expect(await hitsFor(col, "marker11q")).toBe(0);
    } finally {
      await col.close();
    }
  }, 120_000);
});

describe("PostgreSQL BM25 hits' rows", () => {
  it("come from this process's cache when held, equal to SQLite's, and never from a dropped collection of the same name", async () => {
    const dir = join(work.dir, "rows");
    writeDocs(dir, 60, "cedar", { "extra.md": "# Extra\n\nCedar cedar cedar shingles and a cedar fence.\n" });
    const sqlite = await openCollection({ indexDir: join(work.dir, "idx-rows-sqlite"), collection: "rows", create: true });
    const first = await openCollection({ indexDir: join(work.dir, "idx-rows"), collection: "rows", create: true, store });
    expect((await sqlite.ingest([dir])).failed).toEqual([]);
    expect((await first.ingest([dir])).failed).toEqual([]);
    await first.close();
    const reader = await PostgresStore.open(store, "rows", { create: false });
    try {
      const queries = ["cedar", "cedar fence", "ledger marker12q", "cedar totals marker3q marker4q", "shingles"];
      const cache = (reader as unknown as { shared: { hitRows: { hits: number } } }).shared.hitRows;
      for (const round of [0, 1]) {
        const hitsBefore = cache.hits;
        for (const q of queries) {
          const got = await reader.searchLexical(analyzeQuery(q), 10);
          expectSameRanking(await sqlite.retrieve(q, 10), got.map((h) => ({ chunk_id: h.chunk_id, score: h.score })), q);
          // The rows are the stored ones, text included, whether read or cached.
          const want = await reader.getChunk(got[0]!.chunk_id);
          expect({ ...got[0]!, score: 0 }).toEqual({ ...want!, score: 0 });
        }
        // The second round finds every row in the cache.
        if (round === 1) expect(cache.hits - hitsBefore).toBeGreaterThanOrEqual(queries.length);
      }
      // The collection dropped and made again under its name: its row ids start over with other texts.
      await PostgresStore.drop(store, "rows");
      const redo = join(work.dir, "rows-redo");
      writeDocs(redo, 60, "spruce", { "extra.md": "# Extra\n\nSpruce cedar boards, one cedar knot.\n" });
      const second = await openCollection({ indexDir: join(work.dir, "idx-rows"), collection: "rows", create: true, store });
      try {
        expect((await second.ingest([redo])).failed).toEqual([]);
      } finally {
        await second.close();
      }
      const got = await reader.searchLexical(analyzeQuery("cedar"), 10);
      expect(got).toHaveLength(1);
      expect(got[0]!.text).toContain("Spruce cedar boards");
    } finally {
      await reader.close();
      await sqlite.close();
    }
  }, 120_000);
});
