/**
 * The record the derived ANN index (ann-index.ts) is checked against and
 * catches up from, written in the SAME transaction as the vectors it describes
 * (vector-index.ts calls it from every write), so it can never disagree with them:
 *
 * - `vector_log`: one row per vector written or deleted (its chunk rowid), in
 *   commit order. `seq` is AUTOINCREMENT, so it never repeats, even after pruning.
 * - `meta.vector_checksum`: an order-independent digest of every committed
 *   vector (XOR of a 64-bit hash of rowid + stored bytes); each log row keeps the
 *   digest as it stood after that row. An index file records the seq and digest it
 *   was built at: the row at that seq still carrying that digest proves the file
 *   is an ancestor of the committed vectors (a file from a restored or rolled-back
 *   state fails it).
 * - `meta.vector_epoch`: a random id replaced whenever the vector table is created
 *   or dropped (re-embedding): an index of another epoch is never reused.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "./db.js";

/** What the committed vectors are at, as an index file records it. */
export interface VectorState {
  epoch: string;
  /** Last log seq (0 before any vector write). */
  seq: number;
  /** Digest of the committed vectors (16 hex digits). */
  checksum: string;
}

/** One vector write or deletion since some seq. */
export interface VectorChange {
  seq: number;
  rowid: number;
}

const ZERO = "0000000000000000";

/** A 64-bit hash of one stored vector, as a BigInt. */
function vectorHash(rowid: bigint, blob: Buffer): bigint {
  const h = createHash("sha256");
  const id = Buffer.alloc(8);
  id.writeBigInt64LE(rowid);
  h.update(id).update(blob);
  return h.digest().readBigUInt64LE(0);
}

function hasLog(db: Db): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'vector_log'").get() !== undefined;
}

function meta(db: Db, key: string): string | undefined {
  return db.prepare("SELECT value FROM meta WHERE key = ?").pluck().get(key) as string | undefined;
}

function setMeta(db: Db, key: string, value: string): void {
  db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
}

/**
 * Log vector writes and deletions (caller holds the transaction that makes them).
 * `before` / `after` are the stored bytes before and after (undefined: absent).
 */
export function logVectorChanges(db: Db, changes: ReadonlyArray<{ rowid: bigint; before?: Buffer; after?: Buffer }>): void {
  if (changes.length === 0 || !hasLog(db)) return;
  let sum = BigInt(`0x${meta(db, "vector_checksum") ?? ZERO}`);
  const ins = db.prepare("INSERT INTO vector_log (rowid, checksum) VALUES (?, ?)");
  for (const c of changes) {
    if (c.before !== undefined) sum ^= vectorHash(c.rowid, c.before);
    if (c.after !== undefined) sum ^= vectorHash(c.rowid, c.after);
    ins.run(c.rowid, sum.toString(16).padStart(16, "0"));
  }
  setMeta(db, "vector_checksum", sum.toString(16).padStart(16, "0"));
}

/** A new vector table (or none): a new epoch, an empty digest, the old log gone (caller holds the transaction). */
export function resetVectorLog(db: Db): void {
  if (!hasLog(db)) return;
  db.prepare("DELETE FROM vector_log").run();
  setMeta(db, "vector_epoch", randomBytes(8).toString("hex"));
  setMeta(db, "vector_checksum", ZERO);
}

/** The committed vectors' state, or undefined for a file without a log (older schema, opened read-only). */
export function vectorState(db: Db): VectorState | undefined {
  if (!hasLog(db)) return undefined;
  const seq = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'vector_log'").pluck().get() as number | undefined;
  return { epoch: meta(db, "vector_epoch") ?? "", seq: seq ?? 0, checksum: meta(db, "vector_checksum") ?? ZERO };
}

/**
 * Whether an index built at `state` is an ancestor of the committed vectors:
 * same epoch, and the log row at its seq carries its digest (seq 0: nothing was logged before it).
 * False when that row was pruned: the lineage cannot be proven, so the index is rebuilt.
 */
export function isAncestor(db: Db, state: VectorState): boolean {
  const now = vectorState(db);
  if (now === undefined || now.epoch !== state.epoch || state.seq > now.seq) return false;
  if (state.seq === now.seq) return state.checksum === now.checksum;
  if (state.seq === 0) return state.checksum === ZERO && firstSeq(db) === 1;
  const at = db.prepare("SELECT checksum FROM vector_log WHERE seq = ?").pluck().get(state.seq) as string | undefined;
  return at === state.checksum;
}

function firstSeq(db: Db): number | undefined {
  return db.prepare("SELECT min(seq) FROM vector_log").pluck().get() as number | undefined;
}

/** Up to `limit` changes after `seq`, in order. */
export function vectorChangesSince(db: Db, seq: number, limit: number): VectorChange[] {
  return db.prepare("SELECT seq, rowid FROM vector_log WHERE seq > ? ORDER BY seq LIMIT ?").all(seq, limit) as VectorChange[];
}

/** How many changes follow `seq`. */
export function countVectorChangesSince(db: Db, seq: number): number {
  return db.prepare("SELECT count(*) FROM vector_log WHERE seq > ?").pluck().get(seq) as number;
}

/**
 * Forget log rows before `seq` (an index file now holds them). The row AT `seq`
 * stays: it is what proves that file's lineage.
 */
export function pruneVectorLog(db: Db, seq: number): void {
  if (hasLog(db)) db.prepare("DELETE FROM vector_log WHERE seq < ?").run(seq);
}
