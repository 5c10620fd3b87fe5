/**
 * Chunk vectors in the collection's own SQLite file, via sqlite-vec: one
 * `vec0` virtual table `chunk_vectors` whose rowid is the `chunks` table's
 * integer rowid (`chunks.id`). It is an ordinary table as far as transactions
 * go, so vectors commit or roll back together with their chunks when these
 * functions run inside the store's transaction.
 *
 * Distance: callers always get cosine distance (1 - cosine similarity). New
 * tables are `vec0(embedding float[N] distance_metric=l2, chunk_size=256)`
 * holding L2-normalised copies of the vectors, and queries are normalised too:
 * for unit vectors cosine distance = l2² / 2, so the ranking is the cosine
 * ranking, and sqlite-vec 0.1.9's l2 scan is faster than its cosine scan
 * (20k 512-d vectors, k = 10, 2 cores, openDatabase's pragmas: ~9.5 vs ~13 ms
 * p50). 256 vectors per chunk instead of the default 1024 brings it to ~8.7 ms
 * (vec0 reads whole chunks, so it also makes a small table's query ~7x cheaper);
 * at 1M vectors the two chunk sizes measured the same. Tables written by earlier
 * versions (`distance_metric=cosine`, vectors stored as given) keep working as
 * they were: the metric is read from the table's own SQL on every call, so a
 * table another connection dropped and recreated is never misread.
 * A zero vector has no direction and is refused (EMBEDDING_FAILED).
 *
 * Filtered KNN: a filter is applied INSIDE the KNN query as a
 * `rowid IN (…)` constraint, which sqlite-vec evaluates before choosing the
 * k nearest, so a filter never trims a short list: the k results are the k
 * nearest among the chunks that pass. The filter is either an explicit list of
 * chunk rowids (bound as one JSON array) or a SQL SELECT over the store's tables
 * that returns chunk rowids (e.g. `SELECT c.id FROM chunks c JOIN documents d
 * ON d.id = c.doc_id WHERE d.source GLOB ?`), with its own bound parameters.
 *
 * Rowids are always bound as BigInt: better-sqlite3 binds JS numbers as REAL,
 * which vec0 refuses as a primary key.
 */
import type { Statement } from "better-sqlite3";
import { load as loadSqliteVec } from "sqlite-vec";
import { GroundkitError } from "../../core/errors.js";
import { checkDimensions, checkVector, unitCopy, windowsOf, type ChunkVectors } from "../vectors.js";
import { chunkOfKeySql, extraWindowKeyRange, WINDOW_KEY_BASE, windowKey } from "../vector-keys.js";
import { packageMissing } from "../../core/optional-packages.js";
import { packageManifest } from "../../core/package-root.js";
import type { Db } from "./db.js";
import { logVectorChanges, resetVectorLog } from "./vector-log.js";

/** The vec0 table's name. */
export const VECTOR_TABLE = "chunk_vectors";

/** sqlite-vec's largest k for one KNN query. */
export const MAX_KNN_K = 4096;

/** A rowid as stored: JS number or BigInt. */
export type Rowid = number | bigint;

/** One vector to write. */
export interface VectorRow {
  rowid: Rowid;
  vector: Float32Array;
}

/** A KNN hit: cosine distance (1 - cosine similarity), ascending. */
export interface VectorHit {
  rowid: number;
  distance: number;
}

/**
 * Restricts a KNN query to some chunks:
 * - `{ rowids }`: only these chunk rowids;
 * - `{ sql, params }`: only the rowids a SELECT returns. `sql` must be a single
 *   SELECT of one integer column; it is inlined as `rowid IN (<sql>)`, so it
 *   must come from code (a filter compiler), never from user text. Values go in `params`.
 */
export type VectorFilter = { rowids: Iterable<Rowid> } | { sql: string; params?: unknown[] };

const loaded = new WeakSet<Db>();

/**
 * Load sqlite-vec into this connection (once per connection). Called only where a
 * vector table is touched, so a BM25-only collection never needs the extension
 * (`npm install --omit=optional` leaves its platform binary out).
 */
export function loadVectorExtension(db: Db): void {
  if (loaded.has(db)) return;
  try {
    loadSqliteVec(db);
  } catch (err) {
    // Its per-platform binary is an optional dependency of sqlite-vec: `npm install --omit=optional` leaves it out.
    // sqlite-vec 0.1.9's ESM entry fails in import.meta.resolve ("Cannot find package 'sqlite-vec-linux-x64'"), its CJS entry with its own message.
    const message = err instanceof Error ? err.message : "";
    const platformPackage = /'(sqlite-vec-[\w-]+)'|Was the (sqlite-vec-[\w-]+) package installed/.exec(message)?.slice(1).find(Boolean);
    if (platformPackage === undefined) throw err;
    throw packageMissing("Vector search (dense and hybrid modes, --dense ingest)", platformPackage, `${platformPackage}@${packageManifest().dependencies?.["sqlite-vec"] ?? "latest"}`, "", err);
  }
  loaded.add(db);
}

/** Per-connection prepared statements, keyed by SQL text. */
const statementCache = new WeakMap<Db, Map<string, Statement<unknown[]>>>();

function prepared(db: Db, sql: string): Statement<unknown[]> {
  let cache = statementCache.get(db);
  if (cache === undefined) {
    cache = new Map();
    statementCache.set(db, cache);
  }
  let stmt = cache.get(sql);
  if (stmt === undefined) {
    stmt = db.prepare<unknown[]>(sql);
    // Filter SQL varies per query; keep the cache bounded.
    if (cache.size >= 256) cache.clear();
    cache.set(sql, stmt);
  }
  return stmt;
}

/** Forget cached statements: the table's schema changed, so old statements are stale. */
function resetStatements(db: Db): void {
  statementCache.delete(db);
}

/**
 * How a vector table stores and compares vectors:
 * - `l2`: unit-length copies, compared by l2 distance (what this version creates);
 * - `cosine`: vectors as given, compared by cosine distance (tables from earlier versions).
 */
export type VectorMetric = "l2" | "cosine";

/** A vector table's width and metric, as its CREATE statement declares them. */
export interface VectorTableDefinition {
  dimensions: number;
  metric: VectorMetric;
}

/** Vectors per sqlite-vec chunk in new tables: measured faster than the default 1024 (smaller working set per chunk). */
const CHUNK_SIZE = 256;

/** Parsed definitions keyed by the table's SQL text: the parse is cached, the schema read is not (see the file comment). */
const definitions = new Map<string, VectorTableDefinition>();

function parseDefinition(sql: string): VectorTableDefinition {
  const cached = definitions.get(sql);
  if (cached !== undefined) return cached;
  const width = /float\[(\d+)\]/i.exec(sql);
  const metric = /distance_metric\s*=\s*(\w+)/i.exec(sql)?.[1]?.toLowerCase();
  // A table without an explicit metric was not written by groundkit: its vectors may not be unit length.
  if (width === null || (metric !== "l2" && metric !== "cosine")) {
    throw new GroundkitError("STORE_CORRUPT", `The ${VECTOR_TABLE} table has an unexpected definition.`, { sql });
  }
  const def: VectorTableDefinition = { dimensions: Number(width[1]), metric };
  if (definitions.size >= 64) definitions.clear();
  definitions.set(sql, def);
  return def;
}

/**
 * The existing vector table's width and metric, or undefined when there is none.
 *
 * @throws GroundkitError STORE_CORRUPT when the table's definition is not one groundkit writes
 */
export function vectorTableDefinition(db: Db): VectorTableDefinition | undefined {
  const sql = prepared(db, "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?")
    .pluck()
    .get(VECTOR_TABLE) as string | undefined;
  return sql === undefined ? undefined : parseDefinition(sql);
}

/** The width of the existing vector table, or undefined when there is none. */
export function vectorTableDimensions(db: Db): number | undefined {
  return vectorTableDefinition(db)?.dimensions;
}

/**
 * Create the vector table for `dimensions`-wide vectors if it does not exist
 * (loading the extension first). Idempotent; an existing table of the same
 * width is kept whatever its metric (an earlier version's cosine table stays cosine).
 *
 * @throws GroundkitError EMBEDDING_MISMATCH when the table exists with another width
 */
export function ensureVectorTable(db: Db, dimensions: number): void {
  checkDimensions(dimensions);
  loadVectorExtension(db);
  const existing = vectorTableDimensions(db);
  if (existing === undefined) {
    db.exec(
      `CREATE VIRTUAL TABLE ${VECTOR_TABLE} USING vec0(embedding float[${dimensions}] distance_metric=l2, chunk_size=${CHUNK_SIZE})`,
    );
    resetStatements(db);
    resetVectorLog(db);
    return;
  }
  if (existing !== dimensions) {
    throw new GroundkitError(
      "EMBEDDING_MISMATCH",
      `The collection stores ${existing}-dimensional vectors; ${dimensions}-dimensional vectors cannot be added.`,
      { stored: existing, requested: dimensions },
    );
  }
}

/** Drop the vector table and everything in it (e.g. inside a re-embed transaction). No-op when absent. */
export function dropVectorTable(db: Db): void {
  if (vectorTableDimensions(db) === undefined) return;
  loadVectorExtension(db);
  db.exec(`DROP TABLE IF EXISTS ${VECTOR_TABLE}`);
  resetStatements(db);
  resetVectorLog(db);
}

export function requireTable(db: Db): VectorTableDefinition {
  loadVectorExtension(db);
  const def = vectorTableDefinition(db);
  if (def === undefined) {
    throw new GroundkitError("NO_VECTORS", "This collection has no vectors yet.");
  }
  return def;
}

function toBigInt(rowid: Rowid): bigint {
  if (typeof rowid === "bigint") return rowid;
  if (!Number.isSafeInteger(rowid)) {
    throw new GroundkitError("INVALID_ARGUMENT", `A chunk rowid must be an integer, got ${rowid}.`);
  }
  return BigInt(rowid);
}

/**
 * Check a vector's width and values and return it as the table stores it:
 * a unit-length copy for an l2 table (the caller's array is never changed),
 * the vector itself for a cosine table.
 */
export function prepareVector(vector: Float32Array, def: VectorTableDefinition): Float32Array {
  const squares = checkVector(vector, def.dimensions);
  return def.metric === "cosine" ? vector : unitCopy(vector, squares);
}

function asBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/**
 * Insert or replace vectors by chunk rowid. The table must exist
 * ({@link ensureVectorTable}). Run it inside the caller's transaction to make
 * it atomic with the chunk writes; on its own it is one transaction.
 *
 * @throws GroundkitError NO_VECTORS (no table), EMBEDDING_MISMATCH (wrong width),
 *   EMBEDDING_FAILED (a non-finite value, or an all-zero vector)
 */
export function upsertVectors(db: Db, rows: ReadonlyArray<VectorRow>): void {
  if (rows.length === 0) return;
  const def = requireTable(db);
  // Everything is checked before anything is written.
  const stored = rows.map((row) => prepareVector(row.vector, def));
  // vec0 has no UPSERT: delete then insert.
  const del = prepared(db, `DELETE FROM ${VECTOR_TABLE} WHERE rowid = ?`);
  const ins = prepared(db, `INSERT INTO ${VECTOR_TABLE}(rowid, embedding) VALUES (?, ?)`);
  const old = storedBlob(db);
  db.transaction(() => {
    const changes = rows.map((row, i) => {
      const id = toBigInt(row.rowid);
      const before = old(id);
      const after = asBlob(stored[i]!);
      if (before !== undefined) del.run(id);
      ins.run(id, after);
      return { rowid: id, before, after };
    });
    // Same transaction: the ANN index's record never disagrees with the vectors.
    logVectorChanges(db, changes);
  })();
}

/**
 * Reads one stored vector's bytes by rowid (undefined when absent). Absence is
 * checked first in vec0's own rowid table (a plain B-tree lookup): most writes are
 * of new chunks, and vec0's point read costs more than the lookup.
 */
function storedBlob(db: Db): (rowid: bigint) => Buffer | undefined {
  const has = prepared(db, `SELECT 1 FROM ${VECTOR_TABLE}_rowids WHERE rowid = ?`).pluck();
  const get = prepared(db, `SELECT embedding FROM ${VECTOR_TABLE} WHERE rowid = ?`).pluck();
  return (rowid) => (has.get(rowid) === undefined ? undefined : (get.get(rowid) as Buffer | undefined));
}

/**
 * Delete every vector (each window's) of these chunk rowids; missing rowids are ignored. Returns how many
 * vectors were deleted. No-op without a table.
 */
export function deleteVectors(db: Db, rowids: Iterable<Rowid>): number {
  if (vectorTableDimensions(db) === undefined) return 0;
  loadVectorExtension(db);
  const windows = hasExtraWindows(db);
  const keys: bigint[] = [];
  for (const rowid of rowids) {
    const id = toBigInt(rowid);
    keys.push(id);
    if (windows) keys.push(...extraWindowKeys(db, Number(id)));
  }
  return deleteKeys(db, keys);
}

/** Delete vectors by key (logged for the ANN index); absent keys are ignored. Returns how many were deleted. */
function deleteKeys(db: Db, keys: Iterable<bigint>): number {
  const del = prepared(db, `DELETE FROM ${VECTOR_TABLE} WHERE rowid = ?`);
  const old = storedBlob(db);
  let deleted = 0;
  db.transaction(() => {
    const changes: Array<{ rowid: bigint; before: Buffer }> = [];
    for (const id of keys) {
      const before = old(id);
      if (before === undefined) continue;
      deleted += del.run(id).changes;
      changes.push({ rowid: id, before });
    }
    logVectorChanges(db, changes);
  })();
  return deleted;
}

/** True when some chunk has more than one vector (window policy "max"): a cheap seek in vec0's rowid table. */
export function hasExtraWindows(db: Db): boolean {
  if (vectorTableDimensions(db) === undefined) return false;
  loadVectorExtension(db);
  return prepared(db, `SELECT 1 FROM ${VECTOR_TABLE}_rowids WHERE rowid >= ? LIMIT 1`).get(BigInt(WINDOW_KEY_BASE)) !== undefined;
}

/** The stored keys of windows 1 and up of chunk `rowid`, ascending. */
function extraWindowKeys(db: Db, rowid: number): bigint[] {
  const [from, to] = extraWindowKeyRange(rowid);
  return prepared(db, `SELECT rowid FROM ${VECTOR_TABLE}_rowids WHERE rowid BETWEEN ? AND ? ORDER BY rowid`)
    .pluck()
    .safeIntegers(true)
    .all(BigInt(from), BigInt(to)) as bigint[];
}

/** The vector keys of these chunks (each chunk's row id, and its other windows' keys when the collection has any). */
export function windowKeysOf(db: Db, rowids: Iterable<number>): Set<number> {
  const windows = hasExtraWindows(db);
  const out = new Set<number>();
  for (const rowid of rowids) {
    out.add(rowid);
    if (windows) for (const key of extraWindowKeys(db, rowid)) out.add(Number(key));
  }
  return out;
}

/**
 * The rows that store a chunk's vectors: its first window under its own rowid, the others under
 * their window keys (store/vector-keys.ts).
 */
export function chunkVectorRows(rowid: number, vectors: ChunkVectors): VectorRow[] {
  return windowsOf(vectors).map((vector, w) => ({ rowid: windowKey(rowid, w), vector }));
}

/**
 * Delete vectors whose chunk no longer exists (a safety net after chunk
 * deletions that bypassed {@link deleteVectors}). Returns how many were deleted.
 */
export function deleteOrphanVectors(db: Db): number {
  if (vectorTableDimensions(db) === undefined) return 0;
  loadVectorExtension(db);
  const orphans = prepared(
    db,
    `SELECT v.rowid AS rowid FROM ${VECTOR_TABLE}_rowids v WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = ${chunkOfKeySql("v.rowid")})`,
  )
    .safeIntegers(true)
    .all() as Array<{ rowid: bigint }>;
  return deleteKeys(
    db,
    orphans.map((o) => o.rowid),
  );
}

/** Number of stored vectors (0 without a table). */
export function countVectors(db: Db): number {
  if (vectorTableDimensions(db) === undefined) return 0;
  loadVectorExtension(db);
  const row = prepared(db, `SELECT count(*) AS n FROM ${VECTOR_TABLE}`).get() as { n: number };
  return row.n;
}

/** Number of chunks with a vector (their first window's; 0 without a table). */
export function countChunksWithVectors(db: Db): number {
  if (vectorTableDimensions(db) === undefined) return 0;
  loadVectorExtension(db);
  return Number(prepared(db, `SELECT count(*) FROM ${VECTOR_TABLE}_rowids WHERE rowid < ?`).pluck().get(BigInt(WINDOW_KEY_BASE)));
}

/**
 * Chunk rowids (`chunks.id`) that have no vector, ascending, at most `limit`
 * (default all): what a backfill must embed. Every chunk when there is no table.
 */
export function rowidsMissingVectors(db: Db, limit?: number): number[] {
  const hasTable = vectorTableDimensions(db) !== undefined;
  if (hasTable) loadVectorExtension(db);
  const lim = limit === undefined ? -1 : Math.max(0, Math.floor(limit));
  const sql =
    !hasTable
      ? "SELECT id FROM chunks ORDER BY id LIMIT ?"
      : `SELECT c.id AS id FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM ${VECTOR_TABLE} v WHERE v.rowid = c.id) ORDER BY c.id LIMIT ?`;
  return (prepared(db, sql).pluck().all(lim) as number[]).map(Number);
}

/** @throws GroundkitError INVALID_ARGUMENT unless 1 <= k <= {@link MAX_KNN_K} */
export function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 1 || k > MAX_KNN_K) {
    throw new GroundkitError("INVALID_ARGUMENT", `k must be an integer from 1 to ${MAX_KNN_K}, got ${k}.`);
  }
}

/**
 * The `k` stored vectors nearest to `query` by cosine distance, ascending
 * (ties by rowid), optionally restricted by a {@link VectorFilter} that is
 * applied inside the search. `distance` is cosine distance in [0, 2] whatever
 * the table's metric.
 *
 * @throws GroundkitError NO_VECTORS (no table), EMBEDDING_MISMATCH (query width), INVALID_ARGUMENT (k),
 *   EMBEDDING_FAILED (a non-finite value, or an all-zero query)
 * @example
 *   knn(db, queryVector, 10);
 *   knn(db, queryVector, 10, { sql: "SELECT id FROM chunks WHERE doc_id = ?", params: [3] });
 */
export function knn(db: Db, query: Float32Array, k: number, filter?: VectorFilter): VectorHit[] {
  const def = requireTable(db);
  const q = prepareVector(query, def);
  checkK(k);
  let constraint = "";
  let params: unknown[] = [];
  if (filter !== undefined) {
    if ("rowids" in filter) {
      const ids = [...filter.rowids].map((r) => toBigInt(r).toString());
      if (ids.length === 0) return [];
      constraint = "AND rowid IN (SELECT value FROM json_each(?))";
      params = [`[${ids.join(",")}]`];
    } else {
      if (!/^\s*(SELECT|WITH)\b/i.test(filter.sql) || filter.sql.includes(";")) {
        throw new GroundkitError("INVALID_ARGUMENT", "A vector filter's sql must be one SELECT statement.");
      }
      constraint = `AND rowid IN (${filter.sql})`;
      params = filter.params ?? [];
    }
  }
  const sql = `SELECT rowid, distance FROM ${VECTOR_TABLE} WHERE embedding MATCH ? AND k = ? ${constraint} ORDER BY distance`;
  const rows = prepared(db, sql).all(asBlob(q), k, ...params) as Array<{ rowid: number | bigint; distance: number | null }>;
  const l2 = def.metric === "l2";
  const hits: VectorHit[] = [];
  for (const r of rows) {
    // Only an old cosine table can hold a vector without a usable direction (all zeros, or so small that
    // sqlite-vec's float32 length underflows): its distance comes back NULL or infinite. Not a hit.
    if (r.distance === null || !Number.isFinite(r.distance)) continue;
    // Unit vectors: cosine distance = l2² / 2 (clamped: float rounding can step past 2).
    hits.push({ rowid: Number(r.rowid), distance: l2 ? Math.min(2, (r.distance * r.distance) / 2) : r.distance });
  }
  // vec0 allows only `ORDER BY distance`; equal distances are ordered by rowid here.
  return hits.sort((a, b) => a.distance - b.distance || a.rowid - b.rowid);
}

/**
 * The stored vectors of these chunk rowids, each chunk's windows first window first (unit length in an l2
 * table); rowids without one are left out.
 */
export function vectorsByRowid(db: Db, rowids: readonly number[]): Map<number, Float32Array[]> {
  const out = new Map<number, Float32Array[]>();
  if (rowids.length === 0 || vectorTableDimensions(db) === undefined) return out;
  // Reading a vec0 table needs the module too (a `collections copy` from SQLite reads vectors and nothing else of it first).
  loadVectorExtension(db);
  const get = prepared(db, `SELECT embedding FROM ${VECTOR_TABLE} WHERE rowid = ?`).pluck();
  const windows = hasExtraWindows(db);
  // A copy: the blob's buffer is reused by the next row.
  const read = (key: bigint): Float32Array | undefined => {
    const bytes = get.get(key) as Buffer | undefined;
    return bytes === undefined ? undefined : new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  };
  for (const rowid of rowids) {
    const first = read(toBigInt(rowid));
    if (first === undefined) continue;
    const rest = windows ? extraWindowKeys(db, rowid).map((key) => read(key)!) : [];
    out.set(rowid, [first, ...rest]);
  }
  return out;
}
