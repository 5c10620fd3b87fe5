/**
 * The PostgreSQL schema of one collection: its own schema `<prefix>.<name>`
 * (tables unqualified, found through search_path), versioned by the
 * `schema_version` row of `meta` and stamped with `application_id` so a schema
 * that is not ours is refused and left untouched. Migrations are keyed by the
 * version they produce; a new collection runs them all, in one transaction,
 * under an advisory transaction lock so two processes opening it at once do
 * not race.
 */

import { HISTORY_SQL } from "./history.js";
import { BM25_SEGMENTS_SQL, POSTINGS_FOLLOW_CHUNKS_SQL } from "./lexical-schema.js";

/** "GRK1", as for the SQLite files. */
export const APPLICATION_ID = "GRK1";

/** The schema version this build writes. A collection with a higher version is refused. */
export const SCHEMA_VERSION = 6;

export interface Migration {
  version: number;
  sql: string;
}

export const MIGRATIONS: ReadonlyArray<Migration> = [
  {
    version: 1,
    sql: `
      CREATE TABLE meta (
        key   text PRIMARY KEY,
        value text NOT NULL
      );

      CREATE TABLE documents (
        id             bigint PRIMARY KEY,
        document_id    text NOT NULL UNIQUE,
        source         text NOT NULL UNIQUE,
        source_class   text NOT NULL CHECK (source_class IN ('text', 'extracted', 'snapshot')),
        extractor      text,
        base_dir       text,
        fingerprint    text NOT NULL,
        content_hash   text NOT NULL,
        content_length bigint NOT NULL,
        ingested_at    text NOT NULL,
        -- Kept as the exact JSON text written (jsonb would reorder keys); filters cast it.
        metadata       text NOT NULL DEFAULT '{}',
        CHECK ((source_class = 'extracted') = (extractor IS NOT NULL))
      );
      CREATE SEQUENCE document_ids OWNED BY documents.id;

      CREATE TABLE chunks (
        id           bigint PRIMARY KEY,
        chunk_id     text NOT NULL UNIQUE,
        doc_id       bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        ordinal      integer NOT NULL,
        text         text NOT NULL,
        start_offset bigint NOT NULL,
        end_offset   bigint NOT NULL,
        start_line   integer NOT NULL,
        end_line     integer NOT NULL,
        page_start   integer,
        page_end     integer,
        text_hash    text NOT NULL,
        metadata     text NOT NULL DEFAULT '{}',
        -- BM25 document length (tokens), also carried on each posting.
        dl           integer NOT NULL
      );
      CREATE SEQUENCE chunk_ids OWNED BY chunks.id;
      CREATE INDEX chunks_by_doc ON chunks(doc_id, ordinal);

      -- One row per (term, chunk): the same postings the SQLite engine keeps in
      -- segments, scored by the same formula (store/bm25.ts), never ts_rank.
      -- dl is copied here so scoring reads postings alone.
      CREATE TABLE bm25_postings (
        term  text COLLATE "C" NOT NULL,
        chunk bigint NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
        tf    integer NOT NULL,
        dl    integer NOT NULL,
        PRIMARY KEY (term, chunk)
      );
      CREATE INDEX bm25_postings_by_chunk ON bm25_postings(chunk);

      -- N and the summed document length, kept exact by every add and remove.
      CREATE TABLE bm25_stats (
        id        integer PRIMARY KEY CHECK (id = 1),
        docs      bigint NOT NULL,
        total_len bigint NOT NULL
      );
      INSERT INTO bm25_stats VALUES (1, 0, 0);

      -- Exact-scan vectors (float4[]); a pgvector column replaces it when the extension is there (vector-index.ts).
      CREATE TABLE vectors (
        chunk     bigint PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
        embedding real[] NOT NULL
      );

      -- What one folder walk saw, per walker (a connection pool has no one temp table).
      CREATE UNLOGGED TABLE walk_seen (
        walker text NOT NULL,
        source text COLLATE "C" NOT NULL,
        PRIMARY KEY (walker, source)
      );
    `,
  },
  {
    // Derived BM25 segments (lexical-segments.ts): the relational postings in
    // the SQLite engine's block format, scored in the process with pruning.
    // Rebuildable from bm25_postings at any time; an empty set is correct
    // (every posting is then in the tail that searches read row by row).
    version: 2,
    sql: BM25_SEGMENTS_SQL,
  },
  {
    // A chunk may have one vector per window (window policy "max", docs/decisions/0032-max-over-windows.md):
    // existing vectors become window 0, which is what they are.
    version: 3,
    sql: `
      ALTER TABLE vectors ADD COLUMN win smallint NOT NULL DEFAULT 0 CHECK (win >= 0);
      ALTER TABLE vectors DROP CONSTRAINT vectors_pkey;
      ALTER TABLE vectors ADD PRIMARY KEY (chunk, win);
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
    // Document history (store/history.ts, docs/decisions/0031-document-history.md).
    version: 5,
    sql: HISTORY_SQL,
  },
  {
    // Postings follow their chunk by a statement trigger, not a foreign key checked per posting (lexical-schema.ts).
    version: 6,
    sql: POSTINGS_FOLLOW_CHUNKS_SQL,
  },
];
