/**
 * The PostgreSQL backend of the store registry (store/backends.ts): one
 * schema `<prefix>.<name>` per collection in the server the config's URL
 * variable names, its writer lock an advisory lock (ADR 0011, 0019).
 */
import type { Backend, OpenedStore } from "../backend.js";
import { checkIndexDirIfPresent, ensureIndexDir } from "../index-dir.js";
import type { PostgresStoreConfig } from "./connection-settings.js";
import { PostgresStore } from "./postgres-store.js";
import { readinessProbe } from "./readiness-probe.js";

/** How long a readiness probe, or a status's replica lag, waits for each server. */
const PROBE_WAIT_MS = 2000;

export function postgresBackend(config: PostgresStoreConfig): Backend {
  return {
    kind: "postgres",
    doctorChecks: true,

    async open(loc, opts): Promise<OpenedStore> {
      // The index is in PostgreSQL; the index dir keeps only URL snapshots (docs/postgres.md).
      if (opts.create) ensureIndexDir(loc.indexDir);
      else checkIndexDirIfPresent(loc.indexDir);
      const store = await PostgresStore.open(config, loc.name, { create: opts.create });
      return {
        store,
        location: store.location,
        // A schema made by this open is not told apart; a failed first ingest is cleaned up by removeIfUnused.
        createdNow: false,
        withWriterLock: (lock, fn) => store.withWriterLock(lock, fn),
        replicas: () => store.replicaStatus(PROBE_WAIT_MS),
      };
    },

    list: () => PostgresStore.list(config),

    drop: (loc) => PostgresStore.drop(config, loc.name),

    probe: () => readinessProbe(config, PROBE_WAIT_MS),

    fileOf: () => undefined,
  };
}
