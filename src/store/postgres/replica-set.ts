/**
 * A PostgreSQL collection's read replicas, wired: one pool per configured
 * replica (replica-settings.ts), the read chooser over them and the primary
 * (read-pools.ts), and their lag (replica-lag.ts) for `status` and `/readyz`.
 *
 * A replica serves a read only while it is a streaming standby that has
 * replayed this collection at the schema version this groundkit reads
 * (checked on its first read and again every {@link RECHECK_MS}): a promoted
 * server, or one that has not replayed the collection's creation or a
 * migration yet, is passed over and the read goes to the next server.
 */
import { GroundkitError } from "../../core/errors.js";
import type { ReplicaStatus } from "../backend.js";
import type { PostgresStoreConfig } from "./connection-settings.js";
import { PgPool } from "./pg-pool.js";
import { ReadPools, type ReadPoolEvent, type ReadTarget } from "./read-pools.js";
import { replicaLags } from "./replica-lag.js";
import { resolveReplicaSettings } from "./replica-settings.js";
import { SCHEMA_VERSION } from "./schema.js";

/** How long a failed replica is passed over before a read tries it again. */
const RETRY_AFTER_MS = 5_000;

/** How often a serving replica is checked again to still be a standby at our schema version. */
const RECHECK_MS = 30_000;

/** Says a replica cannot serve this collection's reads (not a statement's fault: the read goes elsewhere). */
class ReplicaUnfit extends GroundkitError {
  constructor(target: string, why: string) {
    super("STORE_UNAVAILABLE", `The replica at ${target} ${why}.`);
  }
}

export class ReplicaSet {
  private readonly checkedAt = new Map<string, number>();

  private constructor(
    private readonly reads: ReadPools<PgPool>,
    private readonly pools: readonly PgPool[],
  ) {}

  /**
   * The replicas `config` names, each a pool working in `searchPath`; undefined when it names none.
   * Nothing connects yet: an unreachable replica costs its first read a connect timeout, not the open.
   * The connect bound stays the primary's (10 s): `pg` counts the wait for a free pooled connection
   * in it, so a shorter one would pass a healthy but busy replica over. With `waitMs` (a readiness
   * probe's set, two connections, rarely contended) every connect and statement is bounded by it.
   */
  static async open(
    config: PostgresStoreConfig,
    searchPath: string,
    primary: PgPool,
    opts: { warn: (message: string) => void; waitMs?: number },
  ): Promise<ReplicaSet | undefined> {
    const settings = resolveReplicaSettings(config);
    if (settings.length === 0) return undefined;
    const pools: PgPool[] = [];
    const targets: Array<ReadTarget<PgPool>> = [];
    try {
      for (const s of settings) {
        const probe = opts.waitMs;
        const pool = await PgPool.create(probe === undefined ? s : { ...s, pool: { ...s.pool, connectionTimeoutMillis: probe }, waitTimeoutMs: probe }, searchPath);
        pools.push(pool);
        targets.push({ name: s.name, target: s.target, q: pool });
      }
    } catch (err) {
      for (const p of pools) await p.close();
      throw err;
    }
    const onEvent = (e: ReadPoolEvent): void =>
      opts.warn(
        e.kind === "passed-over"
          ? `read replica ${e.name} (${e.target}) passed over, reads go to the next server: ${e.reason}`
          : `read replica ${e.name} (${e.target}) serves reads again`,
      );
    return new ReplicaSet(new ReadPools({ name: "primary", target: primary.target, q: primary }, targets, { retryAfterMs: RETRY_AFTER_MS, onEvent }), pools);
  }

  /** Run one read (`fn` on one server's pool) on a replica that can serve it, else on the primary. */
  read<T>(fn: (pool: PgPool) => Promise<T>): Promise<T> {
    return this.reads.read(async (pool, server) => {
      if (server !== this.reads.primary) await this.checkFit(server);
      return fn(pool);
    });
  }

  /** Each replica's lag behind the primary (bounded by `waitMs`; never throws), and whether reads pass it over now. */
  async status(waitMs: number): Promise<ReplicaStatus[]> {
    const lags = await replicaLags(this.reads.primary.q, this.reads.replicas, waitMs);
    const passed = new Map(this.reads.passedOver().map((p) => [p.name, p.reason]));
    return lags.map((l) => (passed.has(l.name) ? { ...l, passed_over: passed.get(l.name)! } : l));
  }

  async close(): Promise<void> {
    for (const p of this.pools) await p.close();
  }

  /** Throw (a server failure: the read goes elsewhere) unless the replica is a standby holding this collection at our schema version. */
  private async checkFit(server: ReadTarget<PgPool>): Promise<void> {
    const at = this.checkedAt.get(server.name);
    if (at !== undefined && Date.now() - at < RECHECK_MS) return;
    this.checkedAt.delete(server.name);
    const [row] = (
      await server.q.query<{ standby: boolean; version: string | null }>(
        "SELECT pg_is_in_recovery() AS standby, (SELECT value FROM meta WHERE key = 'schema_version') AS version",
      )
    ).rows;
    if (!row!.standby) throw new ReplicaUnfit(server.target, "is not a streaming standby (pg_is_in_recovery() is false): it may serve a history of its own");
    if (Number(row!.version) !== SCHEMA_VERSION) {
      throw new ReplicaUnfit(server.target, `has not replayed this collection's schema version ${SCHEMA_VERSION} yet (it holds ${row!.version ?? "none"})`);
    }
    this.checkedAt.set(server.name, Date.now());
  }
}
