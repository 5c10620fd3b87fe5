/**
 * What every tool handler is given: the shared collection handles and the
 * server's configuration (never anything taken from the request).
 */
import { resolve } from "node:path";
import { DEFAULTS } from "../core/config.js";
import { checkCollectionName } from "../core/collection-name.js";
import type { CollectionSettings } from "../collection/settings.js";
import { CollectionCache } from "./collection-cache.js";

export interface ServiceContext {
  collections: CollectionCache;
  /** Collection used when a call names none. */
  defaultCollection: string;
  /** Containment root override for verification (`--base-dir`); recorded base dirs otherwise. */
  baseDir: string | undefined;
  /** Directories under which the `ingest` tool may read paths (absolute; symlinks may not leave them). */
  allowedRoots: string[];
  /** Whether `ingest` may fetch URLs on loopback/private hosts (a server flag, never a request field). */
  allowPrivateNetwork: boolean;
  /** Whether the mutating tools are offered (a shared secret is configured). */
  mutating: boolean;
  /**
   * How long a mutating call waits for another writer of its collection (this
   * server's or another process's) before answering COLLECTION_BUSY; kept
   * below the request deadline so a waiting request is answered, not timed out.
   */
  lockTimeoutMs: number;
}

/** Half the default request deadline (30 s). */
const DEFAULT_SERVICE_LOCK_TIMEOUT_MS = 15_000;

export interface ServiceContextOptions {
  indexDir?: string | undefined;
  collection?: string | undefined;
  baseDir?: string | undefined;
  allowedRoots?: string[] | undefined;
  allowPrivateNetwork?: boolean | undefined;
  mutating?: boolean | undefined;
  /** Writer-lock wait of mutating calls (default 15 s). */
  lockTimeoutMs?: number | undefined;
  /** Embedding, reranker and retrieval settings every opened collection gets. */
  settings?: CollectionSettings | undefined;
}

/**
 * Build a context. Allowed roots default to `--base-dir` when none are given;
 * with neither, `ingest` accepts URLs only.
 *
 * @example
 *   const ctx = createServiceContext({ indexDir: ".groundkit", allowedRoots: ["./docs"], mutating: true });
 */
export function createServiceContext(opts: ServiceContextOptions = {}): ServiceContext {
  const baseDir = opts.baseDir ? resolve(opts.baseDir) : undefined;
  const roots = opts.allowedRoots?.length ? opts.allowedRoots : baseDir ? [baseDir] : [];
  return {
    collections: new CollectionCache(opts.indexDir ?? DEFAULTS.indexDir, opts.settings),
    defaultCollection: checkCollectionName(opts.collection ?? DEFAULTS.collection),
    baseDir,
    allowedRoots: roots.map((r) => resolve(r)),
    allowPrivateNetwork: opts.allowPrivateNetwork ?? false,
    mutating: opts.mutating ?? false,
    lockTimeoutMs: opts.lockTimeoutMs ?? DEFAULT_SERVICE_LOCK_TIMEOUT_MS,
  };
}

