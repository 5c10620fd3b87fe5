/**
 * The crash torture's inspection of a collection kept in PostgreSQL: the same
 * {@link IndexInspection} as the SQLite one (fuzz/index-check.ts), read
 * straight from the collection's schema with the product's own connection
 * code. PostgreSQL enforces its foreign keys itself, so here they are
 * re-counted by query; the BM25 postings are checked row by row against what
 * the analyzer gives each chunk's text (term, tf, dl), bm25_stats against the
 * chunks it summarises, and walk_seen for rows of walks that are over.
 */
import { chunkTokens } from "../src/analysis/chunk-tokens.js";
import { resolvePoolSettings, DEFAULT_SCHEMA, type PostgresStoreConfig } from "../src/store/postgres/connection-settings.js";
import { quoteIdent } from "../src/store/postgres/open-schema.js";
import { postingsOf } from "../src/store/postgres/postings.js";
import { PgPool, type PgClient } from "../src/store/postgres/pg-pool.js";
import { inspectSnapshots, type IndexInspection, type StoredDocState } from "./index-check.js";
import { sha256Hex } from "./oracle.js";

/** Inspect collection `name` of the PostgreSQL store `config` and the snapshot directory beside its index dir. */
export async function inspectPostgresIndex(config: PostgresStoreConfig, name: string, snapshotDir: string): Promise<IndexInspection> {
  const schema = `${config.schema ?? DEFAULT_SCHEMA}.${name}`;
  const pool = await PgPool.create(resolvePoolSettings({ ...config, pool_max: 2 }), quoteIdent(schema));
  try {
    const conn = await pool.connect();
    try {
      // One snapshot for every read, as a reader of the store gets.
      await conn.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      try {
        return await inspectIn(conn, snapshotDir);
      } finally {
        await conn.query("ROLLBACK");
      }
    } finally {
      conn.release();
    }
  } finally {
    await pool.close();
  }
}

async function inspectIn(conn: PgClient, snapshotDir: string): Promise<IndexInspection> {
  const scalar = async (sql: string): Promise<number> => Number(Object.values((await conn.query(sql)).rows[0] ?? { n: 0 })[0] ?? 0);
  const chunksWithoutDocument = await scalar("SELECT count(*) FROM chunks WHERE doc_id NOT IN (SELECT id FROM documents)");
  const documentsWithoutChunks = await scalar("SELECT count(*) FROM documents WHERE id NOT IN (SELECT doc_id FROM chunks)");
  const postingsWithoutChunk = await scalar("SELECT count(*) FROM bm25_postings WHERE chunk NOT IN (SELECT id FROM chunks)");
  const vectorsWithoutChunk = await scalar("SELECT count(*) FROM vectors WHERE chunk NOT IN (SELECT id FROM chunks)");
  const stats = (await conn.query<{ docs: string; total_len: string }>("SELECT docs, total_len FROM bm25_stats WHERE id = 1")).rows[0];
  const live = (await conn.query<{ n: string; s: string }>("SELECT count(*) AS n, COALESCE(sum(dl), 0) AS s FROM chunks")).rows[0]!;
  let lexicalOrphans = postingsWithoutChunk;
  let lexicalMissing = 0;
  const statsDocs = Number(stats?.docs ?? 0);
  if (statsDocs > Number(live.n)) lexicalOrphans += statsDocs - Number(live.n);
  if (statsDocs < Number(live.n)) lexicalMissing += Number(live.n) - statsDocs;
  // The summed length drives every score's length normalisation: it must be the chunks' sum exactly.
  let lexicalMismatched = Number(stats?.total_len ?? 0) === Number(live.s) ? 0 : 1;

  const rows = (await conn.query<{ id: string; document_id: string; source: string; source_class: string; content_hash: string }>(
    "SELECT id, document_id, source, source_class, content_hash FROM documents",
  )).rows;
  const chunks = (await conn.query<{
    id: string;
    doc_id: string;
    chunk_id: string;
    start_offset: string;
    end_offset: string;
    text_hash: string;
    text: string;
    metadata: string;
    dl: number;
    vec: boolean;
    terms: string[] | null;
    tfs: number[] | null;
    pdls: number[] | null;
  }>(
    `SELECT c.id, c.doc_id, c.chunk_id, c.start_offset, c.end_offset, c.text_hash, c.text, c.metadata, c.dl,
       EXISTS (SELECT 1 FROM vectors v WHERE v.chunk = c.id) AS vec,
       (SELECT array_agg(p.term ORDER BY p.term) FROM bm25_postings p WHERE p.chunk = c.id) AS terms,
       (SELECT array_agg(p.tf ORDER BY p.term) FROM bm25_postings p WHERE p.chunk = c.id) AS tfs,
       (SELECT array_agg(p.dl ORDER BY p.term) FROM bm25_postings p WHERE p.chunk = c.id) AS pdls
     FROM chunks c ORDER BY c.doc_id, c.start_offset, c.end_offset`,
  )).rows;
  const byDoc = new Map<string, typeof chunks>();
  for (const c of chunks) {
    if (!byDoc.has(c.doc_id)) byDoc.set(c.doc_id, []);
    byDoc.get(c.doc_id)!.push(c);
    const meta = JSON.parse(c.metadata) as { heading_path?: string[] };
    const want = postingsOf(chunkTokens(c.text, meta.heading_path ?? []));
    const got = new Map((c.terms ?? []).map((t, i) => [t, { tf: c.tfs![i]!, dl: c.pdls![i]! }]));
    const same =
      c.dl === want.dl &&
      got.size === want.terms.length &&
      want.terms.every((t, i) => got.get(t)?.tf === want.tfs[i] && got.get(t)?.dl === want.dl);
    if (!same) lexicalMismatched++;
  }
  const docs = new Map<string, StoredDocState>();
  for (const row of rows) {
    const own = byDoc.get(row.id) ?? [];
    docs.set(row.source, {
      documentId: row.document_id,
      sourceClass: row.source_class,
      contentHash: row.content_hash,
      chunks: own.map((c) => `${c.start_offset}:${c.end_offset}:${c.text_hash}:${c.chunk_id}`),
      badChunkHashes: own.filter((c) => sha256Hex(c.text) !== c.text_hash).length,
      vectors: own.filter((c) => c.vec).length,
    });
  }
  const generation = (await conn.query<{ value: string }>("SELECT value FROM meta WHERE key = 'generation'")).rows[0]?.value;
  return {
    // PostgreSQL keeps its own heap and index consistency (WAL replay); what can drift is ours, counted below.
    integrity: "ok",
    foreignKeyViolations: chunksWithoutDocument + postingsWithoutChunk + vectorsWithoutChunk,
    chunksWithoutDocument,
    documentsWithoutChunks,
    lexicalOrphans,
    lexicalMissing,
    lexicalMismatched,
    structures: ["pg-postings", "pg-bm25-stats", "pg-vectors", "pg-walk-seen"],
    vectorsWithoutChunk,
    docs,
    ...inspectSnapshots(docs, snapshotDir),
    generation: generation === undefined ? undefined : Number(generation),
    scratchRows: await scalar("SELECT count(*) FROM walk_seen"),
  };
}
