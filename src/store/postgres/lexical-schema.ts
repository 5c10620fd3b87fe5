/**
 * The tables of the PostgreSQL BM25 segments (schema version 2; ADR 0020).
 *
 * `bm25_postings` (one row per term and chunk) stays the truth. A segment is a
 * derived copy of the postings of the chunks in one id range `lo < chunk <= hi`,
 * in the SQLite engine's block format (store/sqlite/postings-codec.ts): one
 * `bm25_segment_terms` row per term with its block-encoded postings over the
 * segment's local document numbers, and the segment's document table
 * (chunk id, length) in its `bm25_segments` row. Chunk ids only grow, so the
 * chunks above every segment's `hi` are the tail, which searches read from
 * `bm25_postings` directly.
 *
 * Deleting postings of a chunk a segment holds tombstones it: a statement
 * trigger on `bm25_postings` (so every way a chunk goes, cascades included,
 * keeps the segments true) records the chunk in `bm25_segment_dead`, its terms
 * in `bm25_segment_dead_terms` (for exact document frequencies) and counts it
 * in `bm25_segments.dead` (which, with the random `uid`, keys readers' caches).
 */
export const BM25_SEGMENTS_SQL = `
  CREATE SEQUENCE bm25_segment_ids;
  CREATE TABLE bm25_segments (
    id         bigint PRIMARY KEY,
    uid        bigint NOT NULL UNIQUE,  -- random: process caches key the segment's immutable data on it
    lo         bigint NOT NULL,         -- holds the chunks lo < id <= hi that had postings when built
    hi         bigint NOT NULL,
    ndocs      integer NOT NULL,
    dead       integer NOT NULL DEFAULT 0,
    generation bigint NOT NULL,         -- meta.generation when it was built
    docs       bytea NOT NULL,          -- document table: chunk ids ascending, then lengths (postings-codec.ts)
    CHECK (lo < hi)
  );
  CREATE TABLE bm25_segment_terms (
    seg    bigint NOT NULL REFERENCES bm25_segments(id) ON DELETE CASCADE,
    term   text COLLATE "C" NOT NULL,
    df     integer NOT NULL,
    max_tf integer NOT NULL,
    min_dl integer NOT NULL,
    data   bytea NOT NULL,              -- block-encoded postings over local document numbers
    PRIMARY KEY (term, seg)
  );
  -- Read often, never compressed well (varints): out of line, uncompressed.
  ALTER TABLE bm25_segment_terms ALTER COLUMN data SET STORAGE EXTERNAL;
  ALTER TABLE bm25_segments ALTER COLUMN docs SET STORAGE EXTERNAL;
  CREATE TABLE bm25_segment_dead (
    seg   bigint NOT NULL REFERENCES bm25_segments(id) ON DELETE CASCADE,
    chunk bigint NOT NULL,
    PRIMARY KEY (seg, chunk)
  );
  CREATE TABLE bm25_segment_dead_terms (
    seg  bigint NOT NULL REFERENCES bm25_segments(id) ON DELETE CASCADE,
    term text COLLATE "C" NOT NULL,
    n    integer NOT NULL,
    PRIMARY KEY (term, seg)
  );

  CREATE FUNCTION bm25_tombstone() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    WITH gone AS (
      SELECT s.id AS seg, o.chunk, o.term FROM removed o JOIN bm25_segments s ON o.chunk > s.lo AND o.chunk <= s.hi),
    d AS (INSERT INTO bm25_segment_dead (seg, chunk) SELECT DISTINCT seg, chunk FROM gone ON CONFLICT DO NOTHING RETURNING seg),
    t AS (INSERT INTO bm25_segment_dead_terms (seg, term, n) SELECT seg, term, count(*) FROM gone GROUP BY seg, term
          ON CONFLICT (term, seg) DO UPDATE SET n = bm25_segment_dead_terms.n + excluded.n)
    UPDATE bm25_segments s SET dead = s.dead + x.n FROM (SELECT seg, count(*) AS n FROM d GROUP BY seg) x WHERE s.id = x.seg;
    RETURN NULL;
  END
  $fn$;
  CREATE TRIGGER bm25_tombstone AFTER DELETE ON bm25_postings
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION bm25_tombstone();
`;

/**
 * Migration 6 (ADR 0035): a chunk's postings go with it by a statement trigger on `chunks` instead of
 * the foreign key `bm25_postings.chunk → chunks(id) ON DELETE CASCADE`. The key was checked row by row on
 * every posting inserted (a third of the server's time writing a batch, ~50 postings per chunk) and its
 * cascade ran once per chunk deleted; the trigger runs once per statement deleting chunks (the cascade
 * from `documents`, once per document), and every way a chunk goes still takes its postings (and so
 * tombstones them in the segments, by the trigger above). Postings are written only with their chunk,
 * in the same statement (bulk-write.ts, postgres-store.ts). Written to run again over itself (a test
 * re-runs migrations from an earlier version on a schema that already has this one).
 */
export const POSTINGS_FOLLOW_CHUNKS_SQL = `
  ALTER TABLE bm25_postings DROP CONSTRAINT IF EXISTS bm25_postings_chunk_fkey;
  CREATE OR REPLACE FUNCTION bm25_postings_of_removed_chunks() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    DELETE FROM bm25_postings WHERE chunk IN (SELECT id FROM removed);
    RETURN NULL;
  END
  $fn$;
  DROP TRIGGER IF EXISTS bm25_postings_of_removed_chunks ON chunks;
  CREATE TRIGGER bm25_postings_of_removed_chunks AFTER DELETE ON chunks
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION bm25_postings_of_removed_chunks();
`;
