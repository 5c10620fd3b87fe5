/**
 * The collection API every surface (CLI, REST, MCP) uses: open a collection,
 * ingest, search, fetch a chunk, verify a citation, report status.
 *
 * @example
 *   import { openCollection } from "groundkit";
 *   const col = await openCollection({ indexDir: ".groundkit", collection: "default", create: true });
 *   await col.ingest(["./docs"]);
 *   const hits = await col.search("how are citations checked", { verify: true });
 *   await col.close();
 */
export { Collection } from "./collection.js";
export { parseCitation } from "./chunks.js";
export {
  DEFAULT_HISTORY_RETENTION,
  parseHistorySpec,
  type DocumentHistory,
  type DocumentVersionEntry,
  type DocumentVersionText,
  type HistoryRetention,
} from "./history.js";
export {
  checkDoctorSupported,
  collectionFile,
  deleteCollection,
  listCollections,
  openCollection,
  removeIfUnused,
  storeKindOf,
  storeProbe,
  type ReplicaStatus,
  type StoreProbe,
  type StoreReadiness,
} from "./open.js";
export {
  DOCUMENT_PAGE,
  type ChunkView,
  type CollectionAnswerOptions,
  type CollectionLocation,
  type CollectionStatus,
  type DenseIngestOptions,
  type DocumentPage,
  type DocumentSummary,
  type DocumentView,
  type IngestRoot,
  type LockWaitOptions,
  type OpenCollectionOptions,
  type RemoveSummary,
  type RetrievalSettings,
  type RetrievedChunk,
  type SearchMode,
  type SearchOptions,
  type SearchOutcome,
} from "./types.js";
