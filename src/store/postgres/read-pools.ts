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
export interface ReadTarget {
  /** "primary", or the replica's URL variable. */
  name: string;
  /** host:port/database, for messages and status (never the URL). */
  target: string;
  q: Queryable;
}

/** SQLSTATEs and client errors after which another server may well answer the same read. */
const TRY_ELSEWHERE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "EPIPE", "53300", "40001"]);

/** Whether `err` says the server (not the statement) failed the read. */
export function serverFailed(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  if (TRY_ELSEWHERE.has(code) || code.startsWith("08") || code.startsWith("57P")) return true;
  return typeof e?.message === "string" && /Connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(e.message);
}

export class ReadPools {
  private next = 0;
  private readonly downUntil = new Map<string, number>();
  private readonly lastError = new Map<string, string>();

  constructor(
    readonly primary: ReadTarget,
    readonly replicas: readonly ReadTarget[],
    private readonly opts: { retryAfterMs?: number; now?: () => number } = {},
  ) {}

  /**
   * The servers to try for the next read, in order: the replicas not passed
   * over, from the next in turn, then the primary (a replica that failed is not
   * tried again for `retryAfterMs`: each try of a dead server costs a connect timeout).
   */
  order(): ReadTarget[] {
    const now = (this.opts.now ?? Date.now)();
    const n = this.replicas.length;
    const start = n === 0 ? 0 : this.next++ % n;
    const rotated = Array.from({ length: n }, (_, i) => this.replicas[(start + i) % n]!);
    return [...rotated.filter((r) => (this.downUntil.get(r.name) ?? 0) <= now), this.primary];
  }

  /** Run one read on the first server that answers; the last server's failure is thrown. */
  async read<T>(fn: (q: Queryable, server: ReadTarget) => Promise<T>): Promise<T> {
    const servers = this.order();
    for (let i = 0; ; i++) {
      const server = servers[i]!;
      try {
        const out = await fn(server.q, server);
        if (server !== this.primary) this.downUntil.delete(server.name);
        return out;
      } catch (err) {
        if (i === servers.length - 1 || !serverFailed(err)) throw err;
        this.downUntil.set(server.name, (this.opts.now ?? Date.now)() + (this.opts.retryAfterMs ?? 5_000));
        this.lastError.set(server.name, err instanceof Error ? err.message : String(err));
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
