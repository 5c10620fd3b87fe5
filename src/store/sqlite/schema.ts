/**
 * The SQLite schema, versioned by `PRAGMA user_version` and stamped with an
 * `application_id` so a foreign file is recognised and never modified.
 * Migrations are keyed by the version they produce; a fresh file runs them all.
 */

/** "GRK1" as a big-endian 32-bit integer. */
export const APPLICATION_ID = 0x47524b31;

/** The schema version this build writes. A file with a higher version is refused. */
export const SCHEMA_VERSION = 1;

/** Migration N brings a file from version N-1 to N. */
export const MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
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
];
