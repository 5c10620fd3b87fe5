/**
 * Rows as every SQL backend reads them back (the same column names, metadata
 * as the JSON text that was written), turned into the Store's objects.
 */
import { symbolKeys, type ChunkCode } from "../core/code-languages.js";
import type { NewChunk, ScoredChunk, StoreStats, StoredChunk, StoredDocument } from "./store.js";

/** A documents row (d.* columns): metadata is still JSON text. */
export type DocumentRow = Omit<StoredDocument, "metadata"> & { metadata: string };

/** A chunks row joined with its document. */
export type JoinedRow = DocumentRow & Omit<NewChunk, "heading_path" | "source_start_line" | "source_end_line"> & { chunk_metadata: string };

export const DOC_COLUMNS = `d.document_id, d.source, d.source_class, d.extractor, d.base_dir, d.fingerprint,
  d.content_hash, d.content_length, d.ingested_at, d.metadata`;
export const CHUNK_COLUMNS = `c.chunk_id, c.ordinal, c.text, c.start_offset, c.end_offset, c.start_line, c.end_line,
  c.page_start, c.page_end, c.text_hash, c.metadata AS chunk_metadata`;

/**
 * A row of `SELECT c.id, ${CHUNK_COLUMNS}, ${DOC_COLUMNS}` read with
 * better-sqlite3's `.raw()` (an array in column order), as a {@link JoinedRow}
 * and its chunk rowid. Building the object here is several times cheaper than
 * letting the driver name each column (measured on the search path: 10 hits
 * hydrated in ~50 instead of ~140 µs), and gives every row the same shape.
 */
export function joinedRowOfRaw(r: readonly unknown[]): JoinedRow & { rowid_: number } {
  return {
    rowid_: r[0] as number,
    chunk_id: r[1] as string,
    ordinal: r[2] as number,
    text: r[3] as string,
    start_offset: r[4] as number,
    end_offset: r[5] as number,
    start_line: r[6] as number,
    end_line: r[7] as number,
    page_start: r[8] as number | null,
    page_end: r[9] as number | null,
    text_hash: r[10] as string,
    chunk_metadata: r[11] as string,
    document_id: r[12] as string,
    source: r[13] as string,
    source_class: r[14] as JoinedRow["source_class"],
    extractor: r[15] as string | null,
    base_dir: r[16] as string | null,
    fingerprint: r[17] as string,
    content_hash: r[18] as string,
    content_length: r[19] as number,
    ingested_at: r[20] as string,
    metadata: r[21] as string,
  };
}

/** Documents and chunks per source class: the counting SELECT and what its rows become. */
export const COUNTS_BY_CLASS_SQL = `SELECT d.source_class AS cls, count(DISTINCT d.id) AS docs, count(c.id) AS chunks
  FROM documents d LEFT JOIN chunks c ON c.doc_id = d.id GROUP BY d.source_class`;

export function toDocument(row: DocumentRow): StoredDocument {
  return {
    document_id: row.document_id,
    source: row.source,
    source_class: row.source_class,
    extractor: row.extractor,
    base_dir: row.base_dir,
    fingerprint: row.fingerprint,
    content_hash: row.content_hash,
    content_length: row.content_length,
    ingested_at: row.ingested_at,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  };
}

/** What a chunk row's metadata JSON holds. */
interface ChunkMetadata {
  heading_path?: string[];
  /** [first, last] line of the source file, when known (docs/decisions/0017-html-source-lines.md). */
  source_lines?: [number, number];
  /** Where the chunk sits in an office document or e-book (docs/decisions/0022-office-documents.md). */
  location?: string;
  /** Code files: language and definitions (core/code-languages.ts). */
  code?: ChunkCode;
  /** What a `symbol=` filter matches (lowercased names and their dotted suffixes). */
  symbol_keys?: string[];
}

/** The metadata JSON written for a chunk (both stores). */
export function chunkMetadataJson(chunk: Pick<NewChunk, "heading_path" | "source_start_line" | "source_end_line" | "location" | "code">): string {
  const meta: ChunkMetadata = { heading_path: chunk.heading_path };
  if (chunk.source_start_line != null && chunk.source_end_line != null) meta.source_lines = [chunk.source_start_line, chunk.source_end_line];
  if (chunk.location != null) meta.location = chunk.location;
  if (chunk.code) {
    meta.code = chunk.code;
    meta.symbol_keys = symbolKeys(chunk.code);
  }
  return JSON.stringify(meta);
}

export function toChunk(row: JoinedRow): StoredChunk {
  const meta = JSON.parse(row.chunk_metadata) as ChunkMetadata;
  return {
    chunk_id: row.chunk_id,
    ordinal: row.ordinal,
    text: row.text,
    start_offset: row.start_offset,
    end_offset: row.end_offset,
    start_line: row.start_line,
    end_line: row.end_line,
    page_start: row.page_start,
    page_end: row.page_end,
    source_start_line: meta.source_lines?.[0] ?? null,
    source_end_line: meta.source_lines?.[1] ?? null,
    location: meta.location ?? null,
    text_hash: row.text_hash,
    heading_path: meta.heading_path ?? [],
    ...(meta.code ? { code: meta.code } : {}),
    document: toDocument(row),
  };
}

/**
 * A search hit's chunk: {@link toChunk} with its score added to it. Not
 * `{ ...toChunk(row), score }`: V8 makes such a copy of a many-property object
 * in a way that outlives young-generation collections, and takes what it
 * points at (its document, its heading path) along until a full collection;
 * in the bench's query stage each collection in the paragraph class moved
 * about 0.5 MB more for it (4.26 against 3.78 MB).
 */
export function toScoredChunk(row: JoinedRow, score: number): ScoredChunk {
  const chunk = toChunk(row) as ScoredChunk;
  chunk.score = score;
  return chunk;
}

/** {@link StoreStats} from the per-class counts and the meta values. */
export function statsOf(
  byClass: ReadonlyArray<{ cls: string; docs: number; chunks: number }>,
  schemaVersion: number,
  meta: (key: string) => string | undefined,
): StoreStats {
  const documents_by_class: Record<string, number> = {};
  const chunks_by_class: Record<string, number> = {};
  let documents = 0;
  let chunks = 0;
  for (const r of byClass) {
    documents_by_class[r.cls] = r.docs;
    chunks_by_class[r.cls] = r.chunks;
    documents += r.docs;
    chunks += r.chunks;
  }
  return {
    documents,
    chunks,
    documents_by_class,
    chunks_by_class,
    schema_version: schemaVersion,
    generation: Number(meta("generation") ?? 0),
    last_ingest_at: meta("last_ingest_at") ?? null,
  };
}
