/**
 * The store backends behind one face (ADR 0019): open a collection's store,
 * list, drop, probe, and hold its writer lock, for whichever store the config
 * names. Nothing above store/ names a backend: it asks this registry. Each
 * backend is imported when first used, so a SQLite command never loads `pg`
 * and a PostgreSQL one never loads better-sqlite3 for its index.
 */
import type { StoreConfig } from "./store-config.js";
import type { Backend } from "./backend.js";

export type { Backend, OpenStoreOptions, OpenedStore, StoreLocation, StoreProbe, VectorIndexTuning } from "./backend.js";

/** The backend for a store config (SQLite files when none is configured). */
export async function backendOf(store: StoreConfig | undefined): Promise<Backend> {
  if (store?.kind === "postgres") return (await import("./postgres/backend.js")).postgresBackend(store);
  return (await import("./sqlite/backend.js")).sqliteBackend;
}

/** The kind of store a config names, without loading it. */
export function storeKindOf(store: StoreConfig | undefined): string {
  return store?.kind ?? "sqlite";
}
