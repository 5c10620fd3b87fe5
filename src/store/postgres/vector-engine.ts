/**
 * Which dense search a PostgreSQL collection runs, and the SQL of each.
 *
 * - **pgvector HNSW** when the server has the `vector` extension: the
 *   `vectors.embedding` column is `vector(d)` with an HNSW index
 *   (`vector_cosine_ops`) named {@link HNSW_INDEX}; a search takes candidates
 *   from the index by cosine distance and rescores them exactly.
 * - **exact scan** otherwise: the column is `real[]` and every search scans
 *   all vectors (cosine as a float8 dot product of unit vectors in SQL).
 *
 * The state is read from the catalog (the column's type, the index, the
 * extension), never from a cached flag, so a process that opened the
 * collection before another one migrated it searches correctly. Stored
 * and query vectors are unit length in both (docs/decisions/0004), so the
 * score (cosine similarity) is the same as SQLite's. See
 * docs/decisions/0011-postgres-store.md.
 */
import { quoteIdent } from "./open-schema.js";
import { PgStatementError, type PgRunner } from "./pg-pool.js";

/** The HNSW index's name (in the collection's schema). */
export const HNSW_INDEX = "vectors_hnsw";

/** pgvector's HNSW takes `vector` columns of at most 2000 dimensions. */
export const HNSW_MAX_DIMENSIONS = 2000;

/** A CREATE INDEX over every vector may outlast the statement timeout; this bounds it instead. */
export const INDEX_BUILD_TIMEOUT_MS = 2 * 60 * 60 * 1000;

/**
 * Candidates fetched beyond k and rescored exactly: the index orders by
 * pgvector's float32 distance, so chunks within float32 rounding of the k-th
 * may trade places before the float8 rescoring puts them in order.
 */
export const RESCORE_MARGIN = 10;

/** hnsw.ef_search bounds (pgvector takes 1 to 1000); iterative scans go past it when a filter needs more. */
const EF_SEARCH_MIN = 64;
const EF_SEARCH_MAX = 1000;

/**
 * A filter passing at most this many vectors is searched exactly (a scan of
 * those rows by pgvector's distance, in C): cheaper than walking the graph
 * past every chunk the filter rejects, and exact. SQLite's measured
 * crossover (store/sqlite/ann-index.ts); not measured on PostgreSQL.
 */
export const DEFAULT_FILTER_EXACT_MAX = 2000;

/** How a PostgreSQL store answers dense search (tests lower the threshold to reach the graph on a small corpus). */
export interface PgVectorOptions {
  filterExactMax?: number;
}

/** What the catalog says about a collection's vectors. */
export interface VectorColumn {
  /** The schema the extension is installed in, when it is installed in this database. */
  extensionSchema: string | undefined;
  extensionVersion: string | undefined;
  /** `array`: real[] (exact scan); `pgvector`: the extension's vector type. */
  type: "array" | "pgvector";
  /** A `vector(d)` column's declared width. */
  declaredDims: number | undefined;
  /** The HNSW index: built and valid, left invalid by a failed build, or absent. */
  index: "valid" | "invalid" | "none";
  /** The width of a stored vector; undefined when none is stored. */
  dims: number | undefined;
}

const COLUMN_SQL = `SELECT
  (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector') AS ext_schema,
  (SELECT e.extversion FROM pg_extension e WHERE e.extname = 'vector') AS ext_version,
  (SELECT t.typname = 'vector' AND t.typnamespace = (SELECT e.extnamespace FROM pg_extension e WHERE e.extname = 'vector')
     FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
     WHERE a.attrelid = to_regclass('vectors') AND a.attname = 'embedding') AS is_vector,
  (SELECT a.atttypmod FROM pg_attribute a WHERE a.attrelid = to_regclass('vectors') AND a.attname = 'embedding') AS typmod,
  (SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass('${HNSW_INDEX}')) AS index_valid,
  (SELECT array_length(v.embedding::real[], 1) FROM vectors v LIMIT 1) AS dims`;

/** Read the collection's vector column state (one statement). */
export async function readVectorColumn(conn: PgRunner): Promise<VectorColumn> {
  const r = (await conn.query<{
    ext_schema: string | null;
    ext_version: string | null;
    is_vector: boolean | null;
    typmod: number | null;
    index_valid: boolean | null;
    dims: number | null;
  }>(COLUMN_SQL)).rows[0]!;
  const type = r.is_vector ? "pgvector" : "array";
  return {
    extensionSchema: r.ext_schema ?? undefined,
    extensionVersion: r.ext_version ?? undefined,
    type,
    declaredDims: type === "pgvector" && r.typmod !== null && r.typmod > 0 ? r.typmod : undefined,
    index: r.index_valid === null ? "none" : r.index_valid ? "valid" : "invalid",
    dims: r.dims ?? undefined,
  };
}

/** Whether the server could install the extension (its files are there), whether or not this database has it. */
export async function extensionAvailable(conn: PgRunner): Promise<boolean> {
  return (await conn.query<{ n: number }>("SELECT count(*) AS n FROM pg_available_extensions WHERE name = 'vector'")).rows[0]!.n > 0;
}

/**
 * `CREATE EXTENSION IF NOT EXISTS vector` in the `public` schema (never in a
 * collection's schema: dropping that collection would drop the extension,
 * and with CASCADE every other collection's vectors). Returns why it could
 * not, or undefined when it is installed now.
 */
export async function tryCreateExtension(conn: PgRunner): Promise<string | undefined> {
  if (!(await conn.query<{ ok: boolean }>("SELECT to_regnamespace('public') IS NOT NULL AS ok")).rows[0]!.ok) {
    return "there is no public schema to install extension vector in; an administrator can run CREATE EXTENSION vector";
  }
  try {
    await conn.query("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public");
    return undefined;
  } catch (err) {
    if (!(err instanceof PgStatementError)) throw err;
    // Two writers of different collections may race to create it: the loser's unique violation means it is there.
    if ((await readVectorColumn(conn)).extensionSchema !== undefined) return undefined;
    const why = err.sqlState === "42501" ? "this role may not create it" : "creating it failed";
    return `extension vector is available but ${why} (${err.message}); an administrator can run CREATE EXTENSION vector`;
  }
}

/** Why a collection with the extension installed still scans exactly, or undefined when HNSW can serve it. */
export function hnswBlocker(col: VectorColumn): string | undefined {
  if (col.dims !== undefined && col.dims > HNSW_MAX_DIMENSIONS) {
    return `${col.dims}-dimensional vectors: pgvector's HNSW index takes at most ${HNSW_MAX_DIMENSIONS} dimensions, so every dense search scans all vectors`;
  }
  return undefined;
}

/**
 * The statements (one transaction) that bring a collection with stored
 * vectors to pgvector HNSW: the column to `vector(d)` (a table rewrite),
 * a failed build's invalid index dropped, and the index built. Empty when
 * there is nothing to do.
 */
export function migrationStatements(col: VectorColumn): Array<{ sql: string }> {
  const schema = col.extensionSchema;
  if (schema === undefined || col.dims === undefined || hnswBlocker(col) !== undefined) return [];
  const ext = quoteIdent(schema);
  const out: Array<{ sql: string }> = [];
  if (col.type === "array" || col.declaredDims !== col.dims) {
    out.push({ sql: `DROP INDEX IF EXISTS ${HNSW_INDEX}` });
    out.push({ sql: `ALTER TABLE vectors ALTER COLUMN embedding TYPE ${ext}.vector(${col.dims}) USING embedding::real[]::${ext}.vector(${col.dims})` });
  } else if (col.index === "invalid") {
    out.push({ sql: `DROP INDEX ${HNSW_INDEX}` });
  } else if (col.index === "valid") {
    return [];
  }
  out.push({ sql: `CREATE INDEX ${HNSW_INDEX} ON vectors USING hnsw (embedding ${ext}.vector_cosine_ops)` });
  return [{ sql: `SET LOCAL statement_timeout = ${INDEX_BUILD_TIMEOUT_MS}` }, ...out];
}

/**
 * Before every vector is replaced (re-embedding): drop the index (built again
 * over the new vectors afterwards, far faster than inserting into it one by
 * one) and, when the width changes, retype the emptied column.
 */
export function replaceAllStatements(col: VectorColumn, dims: number): Array<{ sql: string }> {
  if (col.type !== "pgvector") return [{ sql: "DELETE FROM vectors" }];
  const out = [{ sql: `DROP INDEX IF EXISTS ${HNSW_INDEX}` }, { sql: "DELETE FROM vectors" }];
  if (col.declaredDims !== dims) out.push(retypeEmpty(col, dims));
  return out;
}

/** Retype the (empty) column to hold `dims`-wide vectors; the next migration builds the index. */
export function retypeEmpty(col: VectorColumn, dims: number): { sql: string } {
  const ext = quoteIdent(col.extensionSchema!);
  return { sql: `ALTER TABLE vectors ALTER COLUMN embedding TYPE ${ext}.vector(${dims}) USING embedding::real[]::${ext}.vector(${dims})` };
}

/** How a search runs over this column. */
export type SearchPlan = "hnsw" | "pgvector-exact" | "array-exact";

export function planOf(col: VectorColumn): SearchPlan {
  if (col.type === "array") return "array-exact";
  return col.index === "valid" ? "hnsw" : "pgvector-exact";
}

/** The session settings an HNSW search runs with (SET LOCAL: they end with the search's transaction). */
export function hnswSettings(candidates: number): { sql: string; params: unknown[] } {
  const ef = Math.min(EF_SEARCH_MAX, Math.max(EF_SEARCH_MIN, 2 * candidates));
  // strict_order: with a filter the scan goes on past ef_search until enough rows pass, in distance order.
  // plan_cache_mode auto: the store's sessions force generic plans (pg-pool.ts), but whether the index
  // answers ORDER BY … LIMIT $n is decided on the LIMIT's value, so this search plans with its values.
  return {
    sql: "SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'strict_order', true), set_config('plan_cache_mode', 'auto', true)",
    params: [String(ef)],
  };
}

/**
 * The candidate rows of a pgvector search: by the index (`hnsw`), or by a
 * scan computing pgvector's distance for every row (`exact`: `+ 0` makes the
 * ORDER BY an expression no index answers). `$1` is the query as real[],
 * `candidates` the placeholder of the candidate count.
 */
export function pgvectorCandidates(schema: string, how: "hnsw" | "exact", where: string, candidates: string): string {
  const ext = quoteIdent(schema);
  const distance = `v.embedding OPERATOR(${ext}.<=>) $1::real[]::${ext}.vector`;
  return `SELECT v.chunk, v.embedding FROM vectors v ${where} ORDER BY ${how === "hnsw" ? distance : `(${distance}) + 0`} LIMIT ${candidates}`;
}

/** Cosine similarity of a stored unit vector with the unit query `$1` (float8, as the exact scan scores). */
export const EXACT_SCORE = `(SELECT sum(a::float8 * b::float8) FROM unnest(v.embedding::real[], $1::real[]) AS t(a, b))`;
