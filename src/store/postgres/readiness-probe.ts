/**
 * The readiness check of a PostgreSQL store (`/readyz`): a bounded ping of
 * the primary and, when the config names read replicas, each replica's lag
 * behind it (replica-lag.ts), measured at the same time. Every wait is
 * bounded by `waitMs` (connect and statement), and nothing here blocks the
 * event loop, so a stalled server delays only this answer, never the server
 * asking. A replica that is down does not make the store unready: reads
 * fall back to the primary.
 */
import type { StoreProbe, StoreReadiness } from "../backend.js";
import { resolvePoolSettings, type PostgresStoreConfig } from "./connection-settings.js";
import { PgPool } from "./pg-pool.js";
import { ReplicaSet } from "./replica-set.js";

/** Long-lived pools for the probes (made on the first check; pg_catalog: no collection needed). */
export function readinessProbe(config: PostgresStoreConfig, waitMs: number): StoreProbe {
  const small = { ...config, pool_max: 2 };
  let primary: Promise<PgPool> | undefined;
  let replicas: Promise<ReplicaSet | undefined> | undefined;
  return {
    async check(): Promise<StoreReadiness> {
      let pool: PgPool;
      try {
        primary ??= PgPool.create(resolvePoolSettings(small), "pg_catalog");
        pool = await primary;
      } catch (err) {
        primary = undefined;
        return { ok: false, reason: (err as Error).message };
      }
      replicas ??= ReplicaSet.open(small, "pg_catalog", pool, { warn: () => undefined, waitMs });
      const [ping, lags] = await Promise.all([pool.ping(waitMs), replicas.then((r) => r?.status(waitMs))]);
      return lags ? { ...ping, replicas: lags } : ping;
    },
    async close(): Promise<void> {
      const [p, r] = [primary, replicas];
      primary = replicas = undefined;
      await (await r?.catch(() => undefined))?.close();
      if (p) await (await p.catch(() => undefined))?.close();
    },
  };
}
