/**
 * The per-collection writer lock: at most one writer (ingest, reembed, delete)
 * per collection at a time, across processes and within one.
 *
 * The lock is SQLite's own write lock on an empty side database,
 * `<index-dir>/<collection>.lock`, held by an open `BEGIN IMMEDIATE` on a
 * connection of its own. The kernel drops it when the holder exits in any way
 * (SIGKILL included), so a dead holder never wedges the collection and there
 * is no stale-lock takeover to get wrong; see docs/decisions/0006-writer-lock.md.
 * Who holds it is written beside it (`.lock.json`) for the waiting message only.
 *
 * @example
 *   const lock = await WriterLock.acquire(".groundkit/default.lock", { collection: "default", operation: "ingest", timeoutMs: 30_000 });
 *   try { ... } finally { lock.release(); }
 */
import { randomUUID } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import Database from "better-sqlite3";
import { GroundkitError } from "../../core/errors.js";
import { describeHolder, type LockHolder, type WriterLockOptions } from "../writer-lock-holder.js";

export type { LockHolder, WriterLockOptions } from "../writer-lock-holder.js";

/** Time between attempts while waiting (the attempt itself never blocks). */
const POLL_MS = 50;

const PROCESS_STARTED_AT = new Date(Date.now() - process.uptime() * 1000).toISOString();

/** A held writer lock. Release it in a `finally`. */
export class WriterLock {
  private released = false;

  private constructor(
    private readonly db: Database.Database,
    private readonly infoPath: string,
    readonly holder: LockHolder,
  ) {}

  /** The lock file of the collection file `<dir>/<name>.sqlite3`. */
  static pathFor(collectionFile: string): string {
    return collectionFile.replace(/\.sqlite3$/, "") + ".lock";
  }

  /** Take the lock, waiting up to `timeoutMs` for another writer; COLLECTION_BUSY after that. */
  static async acquire(lockPath: string, opts: WriterLockOptions): Promise<WriterLock> {
    const deadline = performance.now() + opts.timeoutMs;
    let waited = false;
    for (;;) {
      const lock = WriterLock.tryAcquire(lockPath, opts.operation);
      if (lock) return lock;
      const remaining = deadline - performance.now();
      if (remaining <= 0) throw busyError(lockPath, opts);
      if (!waited) {
        waited = true;
        opts.onWait?.(readHolder(infoPathOf(lockPath)));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, remaining)));
    }
  }

  /** Take the lock now or throw COLLECTION_BUSY (for synchronous callers that cannot wait). */
  static acquireNow(lockPath: string, opts: Omit<WriterLockOptions, "timeoutMs" | "onWait">): WriterLock {
    const lock = WriterLock.tryAcquire(lockPath, opts.operation);
    if (!lock) throw busyError(lockPath, { ...opts, timeoutMs: 0 });
    return lock;
  }

  /** One non-blocking attempt: the lock, or undefined when another writer holds it. */
  private static tryAcquire(lockPath: string, operation: string): WriterLock | undefined {
    const db = new Database(lockPath);
    try {
      // Never let SQLite sleep here: it would block the event loop. Waiting is ours to do.
      db.pragma("busy_timeout = 0");
      db.exec("BEGIN IMMEDIATE");
    } catch (err) {
      db.close();
      const code = (err as { code?: unknown }).code;
      if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") return undefined;
      throw err;
    }
    const holder: LockHolder = {
      pid: process.pid,
      hostname: hostname(),
      operation,
      process_started_at: PROCESS_STARTED_AT,
      acquired_at: new Date().toISOString(),
      token: randomUUID(),
    };
    const infoPath = infoPathOf(lockPath);
    writeHolder(infoPath, holder);
    return new WriterLock(db, infoPath, holder);
  }

  /** Release the lock (idempotent). The lock file stays: see the decision record for why. */
  release(): void {
    if (this.released) return;
    this.released = true;
    if (readHolder(this.infoPath)?.token === this.holder.token) rmSync(this.infoPath, { force: true });
    try {
      this.db.exec("ROLLBACK");
    } finally {
      this.db.close();
    }
  }
}

/**
 * Run `fn` holding the collection's writer lock; released on every exit path.
 *
 * @example
 *   await withWriterLock(lockPath, { collection: "default", operation: "reembed", timeoutMs: 30_000 }, () => reembed());
 */
export async function withWriterLock<T>(lockPath: string, opts: WriterLockOptions, fn: () => Promise<T>): Promise<T> {
  const lock = await WriterLock.acquire(lockPath, opts);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}



function busyError(lockPath: string, opts: WriterLockOptions): GroundkitError {
  const holder = readHolder(infoPathOf(lockPath));
  const waited = opts.timeoutMs > 0 ? `; gave up after waiting ${Math.round(opts.timeoutMs / 100) / 10} s` : "";
  return new GroundkitError(
    "COLLECTION_BUSY",
    `Collection '${opts.collection}' is busy: another ${holder?.operation ?? "writer"} (${describeHolder(holder)}) is writing to it${waited}.`,
    { collection: opts.collection, ...(holder ? { holder_pid: holder.pid, holder_operation: holder.operation } : {}) },
  );
}

function infoPathOf(lockPath: string): string {
  return lockPath + ".json";
}

/** Written whole (temp file + rename), so a reader never sees half of it. */
function writeHolder(infoPath: string, holder: LockHolder): void {
  const temp = `${infoPath}.${holder.token}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify(holder) + "\n", { mode: 0o600 });
    renameSync(temp, infoPath);
  } catch {
    // The holder record only feeds messages; the lock itself is held already.
    rmSync(temp, { force: true });
  }
}

function readHolder(infoPath: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(infoPath, "utf8")) as Partial<LockHolder>;
    return typeof parsed.pid === "number" && typeof parsed.operation === "string" ? (parsed as LockHolder) : undefined;
  } catch {
    return undefined;
  }
}
