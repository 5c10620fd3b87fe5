/**
 * groundkit: retrieval whose citations point at exact characters of their
 * source and can be re-verified. The CLI and the servers are thin shells over
 * these exports.
 */
export {
  Collection,
  deleteCollection,
  listCollections,
  openCollection,
  parseCitation,
  parseHistorySpec,
  DEFAULT_HISTORY_RETENTION,
  type DocumentHistory,
  type DocumentVersionText,
  type HistoryRetention,
  removeIfUnused,
  type ChunkView,
  type DocumentPage,
  type DocumentSummary,
  type DocumentView,
  type IngestRoot,
  type RemoveSummary,
  type CollectionAnswerOptions,
  type CollectionLocation,
  type CollectionStatus,
  type LockWaitOptions,
  type OpenCollectionOptions,
  type RetrievalSettings,
  type SearchMode,
  type SearchOptions,
  type SearchOutcome,
} from "./collection/index.js";
export {
  doctorCollection,
  type DoctorCheck,
  type DoctorOptions,
  type DoctorProblem,
  type DoctorReport,
  type RepairAction,
  type SampleOutcome,
} from "./collection/doctor.js";
export { searchAcross, type CollectionHit } from "./collection/search-across.js";
export type { AnswerReport, AnswerEvent, AnswerOptions, RedactionReport } from "./answer/answer.js";
export type { GroundingReport, GroundingVerdict, QuoteReport, SentenceReport, PassageReport } from "./answer/grounding.js";
export type { QuoteCheck, QuoteOccurrence } from "./answer/verify-quote.js";
export { parseChatConfig, type ChatConfig } from "./answer/chat-config.js";
export { SEARCH_MODES } from "./retrieve/search-pipeline.js";
export { CitationSchema, type Citation, type MatchedPassage, type SearchHit, type SourceClass, type Verdict, type Verification } from "./core/contracts.js";
export type { NoResults } from "./retrieve/no-results.js";
export { ERROR_CATALOGUE, GroundkitError, type ErrorCode } from "./core/errors.js";
export type { IngestSummary, IngestFailure } from "./ingest/ingest.js";
export { describeWait, type LockHolder } from "./store/writer-lock-holder.js";
