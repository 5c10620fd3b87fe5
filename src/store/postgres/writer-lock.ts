/**
 * The per-collection writer lock on PostgreSQL: a session-level advisory lock
 * (pg_try_advisory_lock) held on a pooled connection of its own for the whole
 * write, so writers on any number of machines (and two in one process) take
 * turns. Like the SQLite writer lock (store/sqlite/writer-lock.ts) it is
 * polled, never waited on inside the server, with the same --lock-timeout
 * semantics and the same COLLECTION_BUSY error; the server drops it when the
 * holder's connection goes (a killed process, a lost network), so a dead
 * holder never wedges the collection. Who holds it is written to the
 * `writer_holder` meta row, for messages only.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { GroundkitError } from "../../core/errors.js";
import { describeHolder, type LockHolder, type WriterLockOptions } from "../writer-lock-holder.js";
import { LOCK_CLASS } from "./open-schema.js";
import type { PgClient, PgPool, PgRunner } from "./pg-pool.js";


/** Time between attempts while waiting, as for the SQLite lock. */
const POLL_MS = 50;

const PROCESS_STARTED_AT = new Date(Date.now() - process.uptime() * 1000).toISOString();

async function readHolder(conn: PgRunner): Promise<LockHolder | undefined> {
  try {
    const row = (await conn.query<{ value: string }>("SELECT value FROM meta WHERE key = 'writer_holder'")).rows[0];
    if (!row) return undefined;
    const parsed = JSON.parse(row.value) as Partial<LockHolder>;
    return typeof parsed.pid === "number" && typeof parsed.operation === "string" ? (parsed as LockHolder) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One attempt at the session-level advisory lock (LOCK_CLASS, key) on a
 * connection of its own: that connection, holding the lock, or undefined when
 * another session holds it.
 */
export async function tryAdvisoryLock(pool: PgPool, key: number): Promise<PgClient | undefined> {
  const client = await pool.connect();
  let ok = false;
  try {
    ok = (await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS ok", [LOCK_CLASS, key])).rows[0]?.ok === true;
  } finally {
    if (!ok) client.release();
  }
  return ok ? client : undefined;
}

/** Release the lock and give its connection back (closing it when the unlock fails: the lock goes with the session). */
export async function releaseAdvisoryLock(client: PgClient, key: number): Promise<void> {
  try {
    await client.query("SELECT pg_advisory_unlock($1, $2)", [LOCK_CLASS, key]);
    client.release();
  } catch {
    client.release(true);
  }
}

/** Take the lock (waiting up to `timeoutMs`), run `fn`, release it on every exit path. */
export async function withAdvisoryWriterLock<T>(pool: PgPool, key: number, opts: WriterLockOptions, fn: () => Promise<T>): Promise<T> {
  const deadline = performance.now() + opts.timeoutMs;
  let waited = false;
  let held: PgClient | undefined;
  while (!(held = await tryAdvisoryLock(pool, key))) {
    const remaining = deadline - performance.now();
    if (remaining <= 0) {
      const holder = await readHolder(pool);
      const gaveUp = opts.timeoutMs > 0 ? `; gave up after waiting ${Math.round(opts.timeoutMs / 100) / 10} s` : "";
      throw new GroundkitError(
        "COLLECTION_BUSY",
        `Collection '${opts.collection}' is busy: another ${holder?.operation ?? "writer"} (${describeHolder(holder)}) is writing to it${gaveUp}.`,
        { collection: opts.collection, ...(holder ? { holder_pid: holder.pid, holder_operation: holder.operation } : {}) },
      );
    }
    if (!waited) {
      waited = true;
      opts.onWait?.(await readHolder(pool));
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, remaining)));
  }
  try {
    const holder: LockHolder = {
      pid: process.pid,
      hostname: hostname(),
      operation: opts.operation,
      process_started_at: PROCESS_STARTED_AT,
      acquired_at: new Date().toISOString(),
      token: randomUUID(),
    };
    await held.query(
      "INSERT INTO meta (key, value) VALUES ('writer_holder', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      [JSON.stringify(holder)],
    );
    return await fn();
  } finally {
    await releaseAdvisoryLock(held, key);
  }
}
