/**
 * The SQLite schema, versioned by `PRAGMA user_version` and stamped with an
 * `application_id` so a foreign file is recognised and never modified.
 * Migrations are keyed by the version they produce; a fresh file runs them all.
 */

import { chunkTokens } from "../../analysis/chunk-tokens.js";
import type { Db } from "./db.js";
import { PostingsIndex } from "./postings.js";

/** "GRK1" as a big-endian 32-bit integer. */
export const APPLICATION_ID = 0x47524b31;

/** The schema version this build writes. A file with a higher version is refused. */
export const SCHEMA_VERSION = 5;

/**
 * Migration N brings a file from version N-1 to N: SQL, then an optional step
 * in code (run in the same transaction).
 */
export interface Migration {
  version: number;
  sql: string;
  run?: (db: Db) => void;
}

export const MIGRATIONS: ReadonlyArray<Migration> = [
  {
    version: 1,
    sql: `
      CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE documents (
        id             INTEGER PRIMARY KEY,
        document_id    TEXT NOT NULL UNIQUE,
        source         TEXT NOT NULL UNIQUE,
        source_class   TEXT NOT NULL CHECK (source_class IN ('text', 'extracted', 'snapshot')),
        extractor      TEXT,
        base_dir       TEXT,
        fingerprint    TEXT NOT NULL,
        content_hash   TEXT NOT NULL,
        content_length INTEGER NOT NULL,
        ingested_at    TEXT NOT NULL,
        metadata       TEXT NOT NULL DEFAULT '{}',
        CHECK ((source_class = 'extracted') = (extractor IS NOT NULL))
      ) STRICT;

      CREATE TABLE chunks (
        id           INTEGER PRIMARY KEY,
        chunk_id     TEXT NOT NULL UNIQUE,
        doc_id       INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        ordinal      INTEGER NOT NULL,
        text         TEXT NOT NULL,
        start_offset INTEGER NOT NULL,
        end_offset   INTEGER NOT NULL,
        start_line   INTEGER NOT NULL,
        end_line     INTEGER NOT NULL,
        page_start   INTEGER,
        page_end     INTEGER,
        text_hash    TEXT NOT NULL,
        metadata     TEXT NOT NULL DEFAULT '{}'
      ) STRICT;
      CREATE INDEX chunks_by_doc ON chunks(doc_id, ordinal);

      -- Contentless: the text lives in chunks; the index holds only postings.
      -- 'body' is the chunk text prepared for lexical search (CJK runs as bigrams),
      -- 'heading' the Markdown heading path.
      CREATE VIRTUAL TABLE chunks_fts USING fts5(
        body, heading,
        content = '', contentless_delete = 1,
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
    `,
  },
  {
    // BM25 moves from FTS5's bm25() to our own postings (docs/decisions/0003-own-bm25-postings.md):
    // index every existing chunk, then drop the FTS5 table.
    version: 2,
    sql: "",
    run: (db) => {
      const postings = new PostingsIndex(db);
      // Read in id-ordered pages with .all(): better-sqlite3 forbids writes while an iterator is open,
      // and PostingsIndex.add writes (it flushes segments every few thousand documents).
      const page = db.prepare("SELECT id, text, metadata FROM chunks WHERE id > ? ORDER BY id LIMIT 1000");
      for (let last = -1; ; ) {
        const rows = page.all(last) as Array<{ id: number; text: string; metadata: string }>;
        if (rows.length === 0) break;
        for (const row of rows) {
          const meta = JSON.parse(row.metadata) as { heading_path?: string[] };
          postings.add(row.id, chunkTokens(row.text, meta.heading_path ?? []));
        }
        last = rows[rows.length - 1]!.id;
      }
      db.exec("DROP TABLE IF EXISTS chunks_fts");
    },
  },
  {
    // The vector change log the derived ANN index catches up from (vector-log.ts,
    // docs/decisions/0009-ann-vector-index.md). Written in the same transaction as the vectors.
    version: 3,
    sql: `
      CREATE TABLE vector_log (
        seq      INTEGER PRIMARY KEY AUTOINCREMENT,
        rowid    INTEGER NOT NULL,
        checksum TEXT NOT NULL
      );
    `,
  },
  {
    // Moves and cross-file verification look documents up by fingerprint and chunks by text hash
    // (docs/decisions/0030-moves-and-cross-file-verification.md).
    version: 4,
    sql: `
      CREATE INDEX IF NOT EXISTS documents_by_fingerprint ON documents(fingerprint);
      CREATE INDEX IF NOT EXISTS chunks_by_text_hash ON chunks(text_hash);
    `,
  },
  {
    // Document history (store/history.ts, docs/decisions/0031-document-history.md):
    // previous versions, their chunk spans, and the chunk texts once each by SHA-256.
    // Spans name blocks by hash without a foreign key, so `grk doctor` can report a dangling one.
    version: 5,
    sql: `
      CREATE TABLE history_versions (
        id             INTEGER PRIMARY KEY,
        document_id    TEXT NOT NULL,
        source         TEXT NOT NULL,
        source_class   TEXT NOT NULL,
        extractor      TEXT,
        fingerprint    TEXT NOT NULL,
        content_hash   TEXT NOT NULL,
        content_length INTEGER NOT NULL,
        ingested_at    TEXT NOT NULL,
        superseded_at  TEXT NOT NULL,
        reason         TEXT NOT NULL CHECK (reason IN ('replaced', 'removed')),
        bytes          INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX history_versions_by_document ON history_versions(document_id, id);
      CREATE INDEX history_versions_by_time ON history_versions(superseded_at);

      CREATE TABLE history_spans (
        version_id   INTEGER NOT NULL REFERENCES history_versions(id) ON DELETE CASCADE,
        ordinal      INTEGER NOT NULL,
        chunk_id     TEXT NOT NULL,
        start_offset INTEGER NOT NULL,
        end_offset   INTEGER NOT NULL,
        start_line   INTEGER NOT NULL,
        end_line     INTEGER NOT NULL,
        page_start   INTEGER,
        page_end     INTEGER,
        hash         TEXT NOT NULL,
        PRIMARY KEY (version_id, ordinal)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX history_spans_by_hash ON history_spans(hash);
      CREATE INDEX history_spans_by_chunk ON history_spans(chunk_id);

      -- A rowid table: WITHOUT ROWID packs rows of kilobytes of text badly (SQLite's own advice).
      CREATE TABLE history_blocks (
        hash  TEXT NOT NULL UNIQUE,
        text  TEXT NOT NULL,
        bytes INTEGER NOT NULL
      ) STRICT;
    `,
  },
];
