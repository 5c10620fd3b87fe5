/** The SQLite store's answers to `grk doctor` (store-health.ts), from its rows and files. */
import type { StoreHealth } from "../store-health.js";
import { DERIVED_INDEXES } from "./derived-indexes.js";
import {
  countOrphanChunks,
  deleteOrphanChunks,
  inconsistentDocuments,
  markDocumentsStale,
  recordedExtractors,
  sampleChunkIds,
  snapshotDocuments,
  sweepOrphanVectors,
  vectorCoverage,
} from "./row-health.js";
import type { SqliteEngine } from "./sqlite-engine.js";

/** Settled Promises over the synchronous checks; a throw becomes a rejection. */
function settled<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err as Error);
  }
}

export function sqliteHealth(engine: SqliteEngine, store: { rebuildVectorIndex(): Promise<{ indexed_vectors: number; state: string }> }): StoreHealth {
  const db = engine.db;
  return {
    countOrphanChunks: () => settled(() => countOrphanChunks(db)),
    deleteOrphanChunks: () => settled(() => db.transaction(() => deleteOrphanChunks(db)).immediate()),
    inconsistentDocuments: (maxNamed) => settled(() => inconsistentDocuments(db, maxNamed)),
    markDocumentsStale: (ids) => settled(() => markDocumentsStale(db, ids)),
    vectorCoverage: () => settled(() => vectorCoverage(db)),
    sweepOrphanVectors: () => settled(() => sweepOrphanVectors(db)),
    recordedExtractors: () => settled(() => recordedExtractors(db)),
    snapshotDocuments: (after, limit) => settled(() => snapshotDocuments(db, after, limit)),
    sampleChunkIds: (cls, n) => settled(() => sampleChunkIds(db, cls, n)),
    derivedStructures: () =>
      DERIVED_INDEXES.map((index) => ({
        name: index.name,
        description: index.description,
        check: () => settled(() => index.check(db)),
        rebuild: () => settled(() => index.rebuild(db)),
      })),
    damagedVectorIndexFiles: () => settled(() => engine.damagedVectorIndexFiles()),
    rebuildVectorIndex: () => store.rebuildVectorIndex(),
  };
}
