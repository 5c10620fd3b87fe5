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
import { settle } from "./settle.js";
import type { SqliteEngine } from "./sqlite-engine.js";

export function sqliteHealth(engine: SqliteEngine, store: { rebuildVectorIndex(): Promise<{ indexed_vectors: number; state: string }> }): StoreHealth {
  const db = engine.db;
  return {
    countOrphanChunks: () => settle(() => countOrphanChunks(db)),
    deleteOrphanChunks: () => settle(() => db.transaction(() => deleteOrphanChunks(db)).immediate()),
    inconsistentDocuments: (maxNamed) => settle(() => inconsistentDocuments(db, maxNamed)),
    markDocumentsStale: (ids) => settle(() => markDocumentsStale(db, ids)),
    vectorCoverage: () => settle(() => vectorCoverage(db)),
    sweepOrphanVectors: () => settle(() => sweepOrphanVectors(db)),
    recordedExtractors: () => settle(() => recordedExtractors(db)),
    snapshotDocuments: (after, limit) => settle(() => snapshotDocuments(db, after, limit)),
    sampleChunkIds: (cls, n) => settle(() => sampleChunkIds(db, cls, n)),
    derivedStructures: () =>
      DERIVED_INDEXES.map((index) => ({
        name: index.name,
        description: index.description,
        check: () => settle(() => index.check(db)),
        rebuild: () => settle(() => index.rebuild(db)),
      })),
    damagedVectorIndexFiles: () => settle(() => engine.damagedVectorIndexFiles()),
    rebuildVectorIndex: () => store.rebuildVectorIndex(),
  };
}
