/**
 * A schema v1 collection (FTS5 era) migrates to v2 on open: every chunk is
 * indexed into the BM25 postings and the FTS5 table is dropped. Regression:
 * with more chunks than one postings flush (4,096), the migration failed with
 * "This database connection is busy executing a query".
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { APPLICATION_ID, MIGRATIONS } from "../src/store/sqlite/schema.js";
import { tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
const CHUNKS = 5000;

beforeAll(() => {
  work = tempDir("grk-migrate-");
  const db = new Database(join(work.dir, "old.sqlite3"));
  db.exec(MIGRATIONS.find((m) => m.version === 1)!.sql);
  db.pragma(`application_id = ${APPLICATION_ID}`);
  db.pragma("user_version = 1");
  db.transaction(() => {
    const doc = db
      .prepare(
        `INSERT INTO documents (document_id, source, source_class, extractor, base_dir, fingerprint, content_hash, content_length, ingested_at)
         VALUES ('d1', '/nowhere/doc.md', 'text', NULL, '/nowhere', 'f', 'h', 1, '2026-01-01T00:00:00Z')`,
      )
      .run();
    const chunk = db.prepare(
      `INSERT INTO chunks (chunk_id, doc_id, ordinal, text, start_offset, end_offset, start_line, end_line, text_hash, metadata)
       VALUES (?, ?, ?, ?, 0, 1, 1, 1, 'x', '{"heading_path":["Migrated"]}')`,
    );
    for (let i = 0; i < CHUNKS; i++) chunk.run(`c${i}`, doc.lastInsertRowid, i, `passage number w${i} about lighthouses`);
  })();
  db.close();
});
afterAll(() => work.cleanup());

describe("schema migration v1 -> v2", () => {
  it("indexes every existing chunk into the postings and drops FTS5", async () => {
    const col = await openCollection({ indexDir: work.dir, collection: "old" });
    try {
      expect(await col.status()).toMatchObject({ schema_version: 5, chunks: CHUNKS });
      const hits = await col.search("w4999 lighthouses");
      expect(hits[0]!.chunk_id).toBe("c4999");
      expect((await col.search("migrated", { topK: 100 })).length).toBe(100);
    } finally {
      await col.close();
    }
    const db = new Database(join(work.dir, "old.sqlite3"), { readonly: true });
    try {
      expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'chunks_fts'").pluck().get()).toBe(0);
      expect(db.prepare("SELECT docs FROM bm25_state").pluck().get()).toBe(CHUNKS);
    } finally {
      db.close();
    }
  });
});
