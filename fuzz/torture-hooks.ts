/**
 * Preloaded into the real CLI by the crash torture
 * (`node --import <this> dist/cli/main.js ingest …`) to make SIGKILL land at
 * precise moments. It changes no behaviour; it only reports events on fd 3
 * (one line each: "<event> <n> <detail>") and, at the one event named by
 * GRK_TORTURE_STOP ("<event>:<n>", counted from 0), stops the process dead so
 * the kill lands exactly there:
 *
 * - `tx`: a store transaction has run all its statements but not committed;
 * - `snapshot-write`: a staged snapshot temp file is half written;
 * - `snapshot-rename`: the rows committed, the staged snapshot not yet renamed into place;
 * - `embed`: an embedding batch was handed to a worker thread (dense ingest);
 * - `ann-save`: the ANN index's new data file is in place, its header not yet
 *   (src/store/sqlite/ann-file.ts: the header still names the previous state);
 * - `open`: a source file under GRK_TORTURE_DOCS was opened (never stops; the
 *   torture kills a little later, while that document is being chunked).
 *
 * GRK_TORTURE_REQUIRE_FROM names a file in the product so better-sqlite3 is
 * resolved to the same module instance the CLI uses. On the PostgreSQL store,
 * GRK_TORTURE_PG_CONNECTION names the product's pg-pool module: `tx` fires
 * there when a writing transaction's connection is about to send its COMMIT
 * (every statement has run on the server, nothing is committed).
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { Worker } from "node:worker_threads";

const BEACON_FD = 3;
const stopAt = /^([a-z-]+):(\d+)$/.exec(process.env.GRK_TORTURE_STOP ?? "");
const docsPrefix = process.env.GRK_TORTURE_DOCS ?? "\0";
const counts = new Map<string, number>();

/** Report an event; true when it is the one to stop at. */
function beacon(event: string, detail = ""): boolean {
  const n = counts.get(event) ?? 0;
  counts.set(event, n + 1);
  const stop = stopAt !== null && stopAt[1] === event && Number(stopAt[2]) === n;
  try {
    fs.writeSync(BEACON_FD, `${event} ${n} ${stop ? "STOP" : "-"} ${detail}\n`);
  } catch {
    // No beacon pipe: run unobserved.
  }
  return stop;
}

/** Block this thread until the torture's SIGKILL arrives; exit 99 if it never does. */
function freeze(): never {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  process.exit(99);
}

// Transactions: wrap the body so the beacon fires after its statements, before COMMIT.
const requireFrom = createRequire(process.env.GRK_TORTURE_REQUIRE_FROM ?? import.meta.url);
const Sqlite = requireFrom("better-sqlite3") as { prototype: { transaction: (fn: (...a: unknown[]) => unknown) => unknown } };
const originalTransaction = Sqlite.prototype.transaction;
Sqlite.prototype.transaction = function (this: unknown, fn: (...a: unknown[]) => unknown) {
  return originalTransaction.call(this, function (this: unknown, ...args: unknown[]) {
    const result = fn.apply(this, args);
    if (beacon("tx")) freeze();
    return result;
  });
};

// PostgreSQL transactions: the same beacon just before a writing transaction's COMMIT is sent.
if (process.env.GRK_TORTURE_PG_CONNECTION) {
  const { PgClient } = (await import(process.env.GRK_TORTURE_PG_CONNECTION)) as {
    PgClient: { prototype: { query(sql: string, ...rest: unknown[]): Promise<unknown> } };
  };
  const readOnly = new WeakSet<object>();
  const originalQuery = PgClient.prototype.query;
  PgClient.prototype.query = function (this: object, sql: string, ...rest: unknown[]) {
    if (/^BEGIN\b/i.test(sql)) {
      if (/READ ONLY/i.test(sql)) readOnly.add(this);
      else readOnly.delete(this);
    } else if (sql === "COMMIT" && !readOnly.has(this) && beacon("tx")) {
      freeze();
    }
    return originalQuery.call(this, sql, ...rest);
  };
}

// File handles opened for staged snapshots and for sources.
const stagedHandles = new WeakSet<object>();
const originalOpen = fsp.open;
fsp.open = async function (path: fs.PathLike, flags?: string | number, mode?: fs.Mode) {
  const handle = await originalOpen(path, flags, mode);
  const p = String(path);
  if (p.endsWith(".tmp") && p.includes(".snapshots")) stagedHandles.add(handle);
  else if (p.startsWith(docsPrefix)) beacon("open", p);
  return handle;
} as typeof fsp.open;

// Sources are read with synchronous calls (see readFileCapped).
const originalOpenSync = fs.openSync;
fs.openSync = function (...args: Parameters<typeof fs.openSync>) {
  const fd = originalOpenSync(...args);
  const path = args[0];
  if (String(path).startsWith(docsPrefix)) beacon("open", String(path));
  return fd;
} as typeof fs.openSync;

// The ANN index's save: its vectors file or data file renamed into place, header not yet written.
const originalRenameSync = fs.renameSync;
fs.renameSync = function (from: fs.PathLike, to: fs.PathLike) {
  originalRenameSync(from, to);
  if (/\.ann-[^/]*\.(usearch|vectors)$/.test(String(to)) && beacon("ann-save", String(to))) freeze();
} as typeof fs.renameSync;

const originalRename = fsp.rename;
fsp.rename = async function (from: fs.PathLike, to: fs.PathLike) {
  if (String(from).endsWith(".tmp") && beacon("snapshot-rename", String(to))) freeze();
  return originalRename(from, to);
} as typeof fsp.rename;
syncBuiltinESMExports();

// Writing a staged snapshot: at the stop point, write half of it first.
const probe = await originalOpen(process.execPath, "r");
const handleProto = Object.getPrototypeOf(probe) as { writeFile: (this: object, data: unknown, opts?: unknown) => Promise<void> };
await probe.close();
const originalWriteFile = handleProto.writeFile;
handleProto.writeFile = async function (this: object, data: unknown, opts?: unknown) {
  if (stagedHandles.has(this) && stopAt?.[1] === "snapshot-write" && Number(stopAt[2]) === (counts.get("snapshot-write") ?? 0)) {
    const chars = Array.from(String(data));
    await originalWriteFile.call(this, chars.slice(0, chars.length >> 1).join(""), opts);
    if (beacon("snapshot-write")) freeze();
  }
  if (stagedHandles.has(this)) beacon("snapshot-write");
  return originalWriteFile.call(this, data, opts);
};

// Embedding batches handed to worker threads.
const originalPost = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker["postMessage"]>) {
  const result = originalPost.apply(this, args);
  if (beacon("embed")) freeze();
  return result;
};
