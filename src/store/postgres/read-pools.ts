/**
 * Which server a read goes to: the collection's read replicas in turn, the
 * primary when there are none or none can answer. Writes never come here.
 *
 * A replica that cannot answer a read (unreachable, shutting down, or a
 * statement cancelled by a recovery conflict, which a standby raises while it
 * replays a change the read's snapshot still needs) is passed over for
 * `retryAfterMs` and the read runs on the next one, the primary last, so a
 * reader sees an answer whenever any server can give one. Each read is one
 * call of `fn` on one server, so it reads one snapshot of one server.
 */
import type { Queryable } from "./queryable.js";

/** One server reads can go to. */
export interface ReadTarget<Q extends Queryable = Queryable> {
  /** "primary", or the replica's URL variable. */
  name: string;
  /** host:port/database, for messages and status (never the URL). */
  target: string;
  q: Q;
}

/** SQLSTATEs and client errors after which another server may well answer the same read. */
const TRY_ELSEWHERE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "EPIPE", "53300", "40001"]);

/**
 * Typed errors of the store's own pool (pg-pool.ts) that another server may answer: the server is
 * unavailable, or the collection is not there yet (a replica that has not replayed its creation).
 */
const TRY_ELSEWHERE_TYPED = new Set(["STORE_UNAVAILABLE", "COLLECTION_NOT_FOUND"]);

/** Whether `err` says the server (not the statement) failed the read. */
export function serverFailed(err: unknown): boolean {
  const e = err as { code?: unknown; sqlState?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : typeof e?.sqlState === "string" ? e.sqlState : "";
  if (TRY_ELSEWHERE.has(code) || TRY_ELSEWHERE_TYPED.has(code) || code.startsWith("08") || code.startsWith("57P")) return true;
  return typeof e?.message === "string" && /Connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(e.message);
}

/** What the read chooser reports when it passes a replica over or takes it back. */
export type ReadPoolEvent = { kind: "passed-over"; name: string; target: string; reason: string } | { kind: "back"; name: string; target: string };

export class ReadPools<Q extends Queryable = Queryable> {
  private next = 0;
  private readonly downUntil = new Map<string, number>();
  private readonly lastError = new Map<string, string>();

  constructor(
    readonly primary: ReadTarget<Q>,
    readonly replicas: readonly ReadTarget<Q>[],
    private readonly opts: { retryAfterMs?: number; now?: () => number; onEvent?: (e: ReadPoolEvent) => void } = {},
  ) {}

  /**
   * The servers to try for the next read, in order: the replicas not passed
   * over, from the next in turn, then the primary (a replica that failed is not
   * tried again for `retryAfterMs`: each try of a dead server costs a connect timeout).
   */
  order(): ReadTarget<Q>[] {
    const now = (this.opts.now ?? Date.now)();
    const n = this.replicas.length;
    const start = n === 0 ? 0 : this.next++ % n;
    const rotated = Array.from({ length: n }, (_, i) => this.replicas[(start + i) % n]!);
    return [...rotated.filter((r) => (this.downUntil.get(r.name) ?? 0) <= now), this.primary];
  }

  /** Run one read on the first server that answers; the last server's failure is thrown. */
  async read<T>(fn: (q: Q, server: ReadTarget<Q>) => Promise<T>): Promise<T> {
    const servers = this.order();
    for (let i = 0; ; i++) {
      const server = servers[i]!;
      try {
        const out = await fn(server.q, server);
        if (server !== this.primary && this.lastError.delete(server.name)) {
          this.downUntil.delete(server.name);
          this.opts.onEvent?.({ kind: "back", name: server.name, target: server.target });
        }
        return out;
      } catch (err) {
        if (i === servers.length - 1 || !serverFailed(err)) throw err;
        const reason = err instanceof Error ? err.message : String(err);
        this.downUntil.set(server.name, (this.opts.now ?? Date.now)() + (this.opts.retryAfterMs ?? 5_000));
        if (!this.lastError.has(server.name)) this.opts.onEvent?.({ kind: "passed-over", name: server.name, target: server.target, reason });
        this.lastError.set(server.name, reason);
      }
    }
  }

  /** Replicas passed over now, and why. */
  passedOver(): Array<{ name: string; reason: string }> {
    const now = (this.opts.now ?? Date.now)();
    return this.replicas
      .filter((r) => (this.downUntil.get(r.name) ?? 0) > now)
      .map((r) => ({ name: r.name, reason: this.lastError.get(r.name) ?? "unavailable" }));
  }
}
