/**
 * What a store backend offers (ADR 0019): open a collection's store, list,
 * drop, probe, hold its writer lock. The registry (backends.ts) picks one by
 * config; the backends (sqlite/backend.ts, postgres/backend.ts) implement it.
 * Kept apart from the registry so the backends never import the module that
 * imports them.
 */
import type { StoreConfig } from "./store-config.js";
import type { AnnOptions } from "./sqlite/ann-options.js";
import type { FileChecks } from "./store-health.js";
import type { Store } from "./store.js";
import type { WriterLockOptions } from "./writer-lock-holder.js";

/** Where a collection lives: the index dir (a PostgreSQL store keeps its URL snapshots there) and the store. */
export interface StoreLocation {
  indexDir: string;
  name: string;
  store?: StoreConfig | undefined;
}

/** How dense search uses SQLite's ANN index (store/sqlite/ann-index.ts); other stores ignore it. */
export type VectorIndexTuning = AnnOptions;

export interface OpenStoreOptions {
  create: boolean;
  /** Never write (nor migrate): `grk doctor` without `--repair`. */
  readonly?: boolean | undefined;
  vectorIndex?: VectorIndexTuning | undefined;
}

/**
 * A read replica of a server-backed store (a PostgreSQL streaming standby), for `status` and `/readyz`:
 * how far behind its primary it is, or why it cannot serve.
 */
export interface ReplicaStatus {
  /** The environment variable naming its URL (never the URL). */
  name: string;
  /** host:port/database. */
  target: string;
  /** It answers and is a standby (reads may go to it). */
  ok: boolean;
  /** WAL bytes the primary wrote that it has not replayed yet. */
  replay_lag_bytes?: number;
  /** Age of the last transaction it replayed while it still has WAL to replay (0 once caught up). */
  replay_lag_seconds?: number;
  reason?: string;
  /** Reads pass it over now (it failed one lately), and why. */
  passed_over?: string;
}

/** A collection's open store and what goes with it. */
export interface OpenedStore {
  store: Store;
  /** Where the index is, for `status`: a file, or a server and schema (never credentials). */
  location: string;
  /** Opening it created the collection (a failed first ingest removes it again). */
  createdNow: boolean;
  /** Run a writing call holding the collection's writer lock (writers of every process take turns). */
  withWriterLock<T>(opts: WriterLockOptions, fn: () => Promise<T>): Promise<T>;
  /** The store's read replicas and their lag (none: []); bounded, never throws. */
  replicas(): Promise<ReplicaStatus[]>;
}

/** What a readiness check found: the store answers (or why not), and its read replicas' lag when it has any. */
export type StoreReadiness = ({ ok: true } | { ok: false; reason: string }) & { replicas?: ReplicaStatus[] };

/** Whether the store behind the collections answers (readiness). */
export interface StoreProbe {
  check(): Promise<StoreReadiness>;
  close(): Promise<void>;
}

export interface Backend {
  /** `sqlite` or `postgres`, for readiness reports. */
  readonly kind: string;
  /** Whether `grk doctor` can check its collections (a file backend also offers `checkFile`). */
  readonly doctorChecks: boolean;
  open(loc: StoreLocation, opts: OpenStoreOptions): Promise<OpenedStore>;
  /** Names of the collections this store holds, sorted. */
  list(loc: Omit<StoreLocation, "name">): Promise<string[]>;
  /** Delete a collection's index; COLLECTION_BUSY while a writer holds it (this call does not wait). */
  drop(loc: StoreLocation): Promise<void>;
  probe(): StoreProbe;
  /** The file whose identity tells a cached handle it was replaced; undefined for a server-backed store. */
  fileOf(loc: StoreLocation): string | undefined;
  /** `grk doctor`'s checks of a collection's file (integrity, stamp, schema version); absent for a server-backed store. */
  checkFile?: ((path: string) => Promise<FileChecks>) | undefined;
}
