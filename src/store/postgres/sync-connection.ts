/**
 * A synchronous face on the asynchronous `pg` client, so the PostgreSQL store
 * implements the same synchronous Store interface as SQLite.
 *
 * The pool lives in a worker thread (pg-worker.cjs). A call posts its request
 * on a MessagePort, then blocks this thread with `Atomics.wait` on a shared
 * word until the worker has posted the reply and stored the request's
 * sequence number there; the reply is taken off the port with
 * `receiveMessageOnPort`, which needs no event-loop turn (the technique of
 * the synckit package). The event loop is blocked for the round trip, as it
 * is for SQLite's disk reads; see docs/decisions/0011-postgres-store.md.
 *
 * Every wait is bounded: a server that does not answer within the statement
 * timeout plus a margin gives STORE_UNAVAILABLE, and the worker (with its
 * connections, and so any open transaction) is thrown away and started
 * afresh on the next call.
 */
import { createRequire } from "node:module";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { GroundkitError } from "../../core/errors.js";
import type { PoolSettings } from "./connection-settings.js";

interface Reply {
  seq: number;
  rows?: unknown[];
  rowCount?: number | null;
  error?: { message: string; code?: string };
}

/** A query's result rows (objects by column name, or arrays with `rowMode: "array"`). */
export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/** SQLSTATE classes and client errors that mean the server is gone or unreachable, not that the statement was wrong. */
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "EPIPE", "57P01", "57P02", "57P03", "53300"]);

/** What the caller should hear when the database cannot answer. */
function unavailable(what: string, target: string, cause?: unknown): GroundkitError {
  return new GroundkitError("STORE_UNAVAILABLE", `PostgreSQL at ${target} ${what}.`, undefined, cause ? { cause } : undefined);
}

/** Whether a worker error means the server is unavailable. */
function isUnavailable(err: { message: string; code?: string }): boolean {
  if (err.code && (UNAVAILABLE_CODES.has(err.code) || err.code.startsWith("08"))) return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    err.message,
  );
}

/** An error the server raised for a statement, with its SQLSTATE. */
export class PgStatementError extends Error {
  constructor(
    message: string,
    readonly sqlState: string | undefined,
  ) {
    super(message);
  }
}

export class SyncConnection {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private state = new Int32Array(new SharedArrayBuffer(4));
  private seq = 0;
  private closed = false;

  /**
   * `settings.target` names the server for messages (host, port, database;
   * never the password).
   */
  constructor(
    private readonly settings: PoolSettings,
    /** The quoted schema every connection works in (`SET search_path`). */
    private readonly searchPath: string,
  ) {}

  /** Run one statement (on the open transaction's connection, if any). */
  query<R = Record<string, unknown>>(sql: string, params: unknown[] = [], rowMode?: "array"): QueryResult<R> {
    const r = this.call({ op: "query", sql, params, rowMode });
    return { rows: (r.rows ?? []) as R[], rowCount: r.rowCount ?? 0 };
  }

  /**
   * Run statements in order in one round trip to the worker (on the open
   * transaction's connection, if any); the first that fails stops the rest.
   * `waitMs` replaces the default bound for statements that may run longer
   * than the statement timeout (an index build that lifted it with SET LOCAL).
   */
  batch(statements: Array<{ sql: string; params?: unknown[] }>, waitMs?: number): void {
    this.call({ op: "batch", statements: statements.map((s) => ({ sql: s.sql, params: s.params ?? [] })) }, waitMs);
  }

  /** Whether the server answers `SELECT 1` within `waitMs` (a readiness probe); the reason when it does not. */
  ping(waitMs: number): { ok: true } | { ok: false; reason: string } {
    try {
      this.call({ op: "query", sql: "SELECT 1", params: [] }, waitMs);
      return { ok: true };
    } catch (err) {
      return { ok: false, reason: (err as Error).message };
    }
  }

  /** Open a transaction on a connection of its own; later queries run on it until {@link end}. */
  begin(sql = "BEGIN"): void {
    this.call({ op: "begin", sql });
  }

  /** COMMIT or ROLLBACK the open transaction and give its connection back. */
  end(sql: "COMMIT" | "ROLLBACK"): void {
    this.call({ op: "end", sql });
  }

  /**
   * One attempt at the session-level advisory lock (key1, key2) on a
   * connection of its own, kept (under `lockId`) until {@link unlock}.
   */
  tryLock(lockId: string, key1: number, key2: number): boolean {
    const r = this.call({ op: "lock", lockId, params: [key1, key2] });
    return Boolean((r.rows?.[0] as { ok?: boolean } | undefined)?.ok);
  }

  unlock(lockId: string, key1: number, key2: number): void {
    this.call({ op: "unlock", lockId, params: [key1, key2] });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.worker) {
      try {
        this.call({ op: "close" }, 5000);
      } catch {
        // Closing anyway.
      }
      void this.worker.terminate();
      this.port?.close();
    }
    this.worker = undefined;
    this.port = undefined;
  }

  private start(): void {
    const { port1, port2 } = new MessageChannel();
    this.state = new Int32Array(new SharedArrayBuffer(4));
    this.seq = 0;
    const require = createRequire(import.meta.url);
    this.worker = new Worker(new URL("./pg-worker.cjs", import.meta.url), {
      workerData: {
        port: port2,
        state: this.state,
        // Every connection works in the collection's schema, set at connect time (names have no spaces to escape).
        // JIT off: before autovacuum has analyzed new tables the planner overestimates the short BM25
        // statements and spent ~0.5 s compiling each (measured: 716 ms -> 3 ms for the df statement).
        config: { ...this.settings.pool, options: `-c search_path=${this.searchPath} -c jit=off` },
        pgPath: require.resolve("pg"),
      },
      transferList: [port2],
    });
    // The worker's lifetime follows the store's, not the event loop's.
    this.worker.unref();
    this.worker.on("error", () => {});
    this.port = port1;
  }

  /** Throw the worker away (it may be stuck on a dead server); the next call starts another. */
  private reset(): void {
    void this.worker?.terminate();
    this.port?.close();
    this.worker = undefined;
    this.port = undefined;
  }

  private call(req: Record<string, unknown>, waitMs = this.settings.waitTimeoutMs): Reply {
    if (this.closed && req.op !== "close") throw new GroundkitError("INTERNAL", "The PostgreSQL store is closed.");
    if (!this.worker) this.start();
    const seq = ++this.seq;
    this.port!.postMessage({ ...req, seq });
    const deadline = performance.now() + waitMs;
    for (;;) {
      const seen = Atomics.load(this.state, 0);
      if (seen >= seq) break;
      const remaining = deadline - performance.now();
      if (remaining <= 0) {
        this.reset();
        throw unavailable(`did not answer within ${Math.round(waitMs / 100) / 10} s`, this.settings.target);
      }
      Atomics.wait(this.state, 0, seen, remaining);
    }
    for (;;) {
      const msg = receiveMessageOnPort(this.port!);
      if (!msg) {
        this.reset();
        throw new GroundkitError("INTERNAL", "The PostgreSQL worker signalled a reply it did not post.");
      }
      const reply = msg.message as Reply;
      if (reply.seq !== seq) continue; // a late answer to an abandoned request
      if (reply.error) {
        if (isUnavailable(reply.error)) {
          if (req.op !== "query" || reply.error.code?.startsWith("08")) this.reset();
          throw unavailable(`is unavailable (${reply.error.message})`, this.settings.target);
        }
        if (reply.error.code === "57014") {
          throw new GroundkitError(
            "STORE_UNAVAILABLE",
            `PostgreSQL at ${this.settings.target} cancelled a statement that ran past the statement timeout (${this.settings.statementTimeoutMs} ms).`,
          );
        }
        if (reply.error.code === "42P01" || reply.error.code === "3F000") {
          throw new GroundkitError("COLLECTION_NOT_FOUND", `The collection's tables are gone from PostgreSQL at ${this.settings.target} (deleted meanwhile?).`);
        }
        throw new PgStatementError(reply.error.message, reply.error.code);
      }
      return reply;
    }
  }
}
