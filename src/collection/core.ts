/**
 * What every concern of an open collection works on: its name, store,
 * snapshots and options, and its writer lock. The `Collection` class holds
 * one and hands it to the functions of this folder.
 */
import { join } from "node:path";
import { DEFAULTS } from "../core/config.js";
import { GroundkitError } from "../core/errors.js";
import { createReranker } from "../retrieve/rerank/registry.js";
import type { Reranker } from "../retrieve/rerank/reranker.js";
import type { OpenedStore, ReplicaStatus } from "../store/backends.js";
import { SnapshotStore } from "../store/snapshots.js";
import type { Store } from "../store/store.js";
import { recordedRetention } from "./history.js";
import type { LockWaitOptions, OpenCollectionOptions } from "./types.js";

export interface CollectionCore {
  readonly name: string;
  /** Where the index is (a file, or a server and schema), for `status`. */
  readonly path: string;
  readonly store: Store;
  readonly snapshots: SnapshotStore;
  readonly options: OpenCollectionOptions;
  /** The configured cross-encoder, created on first use. */
  reranker(): Promise<Reranker>;
  /** The store's read replicas and their lag (none: []); bounded waits. */
  replicas(): Promise<ReplicaStatus[]>;
  /** Close the store and, once it is created, the reranker. */
  close(): Promise<void>;
  /**
   * Run a writing call holding the collection's writer lock, so writers (this
   * process's and other processes') take turns and never prune or overwrite
   * each other's work. Released on every exit path; a killed holder's lock
   * goes with its process.
   */
  writing<T>(operation: string, lock: LockWaitOptions, fn: () => Promise<T>): Promise<T>;
}

export function collectionCore(name: string, indexDir: string, opened: OpenedStore, options: OpenCollectionOptions): CollectionCore {
  let rerankerPromise: Promise<Reranker> | undefined;
  return {
    name,
    path: opened.location,
    store: opened.store,
    snapshots: new SnapshotStore(join(indexDir, `${name}.snapshots`)),
    options,
    reranker: () => {
      const config = options.reranker;
      if (!config) {
        return Promise.reject(
          new GroundkitError(
            "INVALID_CONFIG",
            "No reranker is configured. Add a `rerank` section to groundkit.config.json (a local cross-encoder directory or an HTTP /rerank endpoint); see docs/retrieval.md.",
          ),
        );
      }
      rerankerPromise ??= createReranker(config);
      return rerankerPromise;
    },
    replicas: () => opened.replicas(),
    close: async () => {
      await opened.store.close();
      void rerankerPromise?.then((r) => r.close?.()).catch(() => undefined);
    },
    writing: (operation, lock, fn) =>
      opened.withWriterLock(
        { collection: name, operation, timeoutMs: lock.lockTimeoutMs ?? DEFAULTS.lockTimeoutMs, onWait: lock.onLockWait },
        async () => {
          // Under the lock: the retention the last writer recorded says whether replaced and removed documents are kept.
          await opened.store.setHistoryRecording((await recordedRetention(opened.store)).enabled);
          return fn();
        },
      ),
  };
}
