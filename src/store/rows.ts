/**
 * Rows as every SQL backend reads them back (the same column names, metadata
 * as the JSON text that was written), turned into the Store's objects.
 */
import type { NewChunk, StoreStats, StoredChunk, StoredDocument } from "./store.js";

/** A documents row (d.* columns): metadata is still JSON text. */
export type DocumentRow = Omit<StoredDocument, "metadata"> & { metadata: string };

/** A chunks row joined with its document. */
export type JoinedRow = DocumentRow & Omit<NewChunk, "heading_path" | "source_start_line" | "source_end_line"> & { chunk_metadata: string };

export const DOC_COLUMNS = `d.document_id, d.source, d.source_class, d.extractor, d.base_dir, d.fingerprint,
  d.content_hash, d.content_length, d.ingested_at, d.metadata`;
export const CHUNK_COLUMNS = `c.chunk_id, c.ordinal, c.text, c.start_offset, c.end_offset, c.start_line, c.end_line,
  c.page_start, c.page_end, c.text_hash, c.metadata AS chunk_metadata`;

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
}

/** The metadata JSON written for a chunk (both stores). */
export function chunkMetadataJson(chunk: Pick<NewChunk, "heading_path" | "source_start_line" | "source_end_line">): string {
  const meta: ChunkMetadata = { heading_path: chunk.heading_path };
  if (chunk.source_start_line != null && chunk.source_end_line != null) meta.source_lines = [chunk.source_start_line, chunk.source_end_line];
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
    text_hash: row.text_hash,
    heading_path: meta.heading_path ?? [],
    document: toDocument(row),
  };
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
