/**
 * The SQLite backend of the store registry (store/backends.ts): one file
 * `<index dir>/<name>.sqlite3` per collection, its writer lock a file beside
 * it (ADR 0006), its derived files (ANN index, vector log) deleted with it.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { GroundkitError } from "../../core/errors.js";
import type { Backend, OpenedStore, StoreLocation } from "../backend.js";
import { checkIndexDirIfPresent, ensureIndexDir, storeOpenError } from "../index-dir.js";
import type { WriterLockOptions } from "../writer-lock-holder.js";
import { removeAnnFiles } from "./ann-file.js";
import type { AnnOptions } from "./ann-options.js";
import { SqliteStore } from "./sqlite-store.js";
import { withWriterLock, WriterLock } from "./writer-lock.js";

const FILE_SUFFIX = ".sqlite3";

function fileOf(loc: StoreLocation): string {
  return join(loc.indexDir, loc.name + FILE_SUFFIX);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

/**
 * Vector index tuning from the environment (docs/vector-index.md):
 * `GROUNDKIT_ANN=exact` turns the HNSW index off (`auto`, the default, uses it
 * from `GROUNDKIT_ANN_MIN_VECTORS=N` vectors up, default 10,000).
 *
 * @throws GroundkitError INVALID_CONFIG for a value that is not one of those
 */
function annOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): AnnOptions {
  const mode = env.GROUNDKIT_ANN ?? "auto";
  const min = env.GROUNDKIT_ANN_MIN_VECTORS;
  if (mode !== "exact" && mode !== "auto") {
    throw new GroundkitError("INVALID_CONFIG", `GROUNDKIT_ANN must be 'auto' or 'exact', got '${mode}'.`);
  }
  if (min && !/^\d{1,9}$/.test(min)) {
    throw new GroundkitError("INVALID_CONFIG", `GROUNDKIT_ANN_MIN_VECTORS must be a whole number, got '${min}'.`);
  }
  return { mode, ...(min ? { minVectors: Number(min) } : {}) };
}

export const sqliteBackend: Backend = {
  kind: "sqlite",
  doctorChecks: true,

  async open(loc, opts): Promise<OpenedStore> {
    const file = fileOf(loc);
    const existed = isFile(file);
    if (opts.create) ensureIndexDir(loc.indexDir);
    else {
      checkIndexDirIfPresent(loc.indexDir);
      if (!existed) throw new GroundkitError("COLLECTION_NOT_FOUND", `Collection '${loc.name}' does not exist in ${loc.indexDir}.`);
    }
    let store: SqliteStore;
    try {
      store = SqliteStore.open(file, { create: opts.create, readonly: opts.readonly, vectorIndex: opts.vectorIndex ?? annOptionsFromEnv() });
    } catch (err) {
      throw storeOpenError(loc.indexDir, file, err);
    }
    // The file this handle has open, to notice it was deleted or replaced while a writer waited.
    const openedInode = inodeOf(file);
    return {
      store,
      location: file,
      createdNow: !existed,
      withWriterLock<T>(lock: WriterLockOptions, fn: () => Promise<T>): Promise<T> {
        return withWriterLock(WriterLock.pathFor(file), lock, async () => {
          // While this call waited, the collection may have been deleted: writing to the unlinked file would lose it all.
          if (openedInode === undefined || inodeOf(file) !== openedInode) {
            throw new GroundkitError(
              "COLLECTION_NOT_FOUND",
              `Collection '${loc.name}' was deleted or replaced while this ${lock.operation} waited for it; open it again.`,
            );
          }
          return fn();
        });
      },
      // A file has no read replicas.
      replicas: () => Promise.resolve([]),
    };
  },

  async list(loc): Promise<string[]> {
    let names: string[];
    try {
      names = readdirSync(resolve(loc.indexDir));
    } catch {
      return [];
    }
    return names
      .filter((n) => n.endsWith(FILE_SUFFIX))
      .map((n) => n.slice(0, -FILE_SUFFIX.length))
      .sort();
  },

  /** The empty writer-lock file stays (see docs/decisions/0006-writer-lock.md). */
  async drop(loc): Promise<void> {
    const file = fileOf(loc);
    if (!isFile(file)) throw new GroundkitError("COLLECTION_NOT_FOUND", `Collection '${loc.name}' does not exist.`);
    const lock = WriterLock.acquireNow(WriterLock.pathFor(file), { collection: loc.name, operation: "delete" });
    try {
      for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
      removeAnnFiles(file);
    } finally {
      lock.release();
    }
  },

  probe: () => ({ check: () => Promise.resolve({ ok: true }), close: () => Promise.resolve() }),

  fileOf,
  // Loaded on first use: only `grk doctor` inspects a file this way.
  checkFile: async (path) => (await import("./file-doctor.js")).checkCollectionFile(path),
};
