/**
 * Document history (docs/decisions/0031-document-history.md): when a document
 * is replaced by different content or removed, its previous version is kept.
 * A version is its document row as it was plus the spans of its chunks; the
 * chunk texts live once each in a content-addressed block table keyed by their
 * SHA-256 (the chunk's `text_hash`), so text that did not change between
 * versions is stored once. Both backends keep the same three tables
 * (history_versions, history_spans, history_blocks) and share what is here.
 */
import { CodePointText, sha256 } from "../core/text.js";
import type { SourceClass } from "../core/contracts.js";

/** How much history a collection keeps; enforced at the end of every ingest. */
export interface HistoryRetention {
  /** Keep history at all. Off: replacing or removing a document writes and reads nothing more. */
  enabled: boolean;
  /** Previous versions kept per document (the newest ones). */
  versions: number;
  /** Versions superseded longer ago than this many days are dropped. */
  max_age_days: number;
  /** The stored history text (UTF-8 bytes of the distinct blocks) is kept under this; the oldest versions go first. */
  max_bytes: number;
}

/** Defaults: see the ADR for why these numbers. */
export const DEFAULT_HISTORY_RETENTION: Readonly<HistoryRetention> = Object.freeze({
  enabled: true,
  versions: 10,
  max_age_days: 180,
  max_bytes: 256 * 1024 * 1024,
});

/** Why a version stopped being current. */
export type HistoryReason = "replaced" | "removed";

/** A previous version of a document, without its text. */
export interface HistoryVersion {
  version_id: number;
  document_id: string;
  source: string;
  source_class: SourceClass;
  extractor: string | null;
  content_hash: string;
  content_length: number;
  /** When this version was ingested (it was current from then on). */
  ingested_at: string;
  /** When it stopped being current. */
  superseded_at: string;
  reason: HistoryReason;
  /** UTF-8 bytes of its chunks' text (shared blocks counted in full). */
  bytes: number;
}

/** A chunk of a previous version: where it sat and its text (null when its block is missing: see doctor). */
export interface HistorySpan {
  chunk_id: string;
  start_offset: number;
  end_offset: number;
  start_line: number;
  end_line: number;
  page_start: number | null;
  page_end: number | null;
  hash: string;
  text: string | null;
}

/** A chunk of a previous version with the version it belongs to ({@link Store.historyChunk}). */
export interface HistoryChunk {
  version: HistoryVersion;
  span: HistorySpan;
}

/** Version columns as both backends select them (`v` is history_versions). */
export const VERSION_COLUMNS = `v.id AS version_id, v.document_id, v.source, v.source_class, v.extractor, v.content_hash,
  v.content_length, v.ingested_at, v.superseded_at, v.reason, v.bytes`;
/** Span columns as both backends select them (`s` is history_spans, `b` its block, left-joined). */
export const SPAN_COLUMNS = "s.chunk_id, s.start_offset, s.end_offset, s.start_line, s.end_line, s.page_start, s.page_end, s.hash, b.text";

/** A row of VERSION_COLUMNS and SPAN_COLUMNS as the version and the span. */
export function splitChunkRow(r: HistoryVersion & HistorySpan): HistoryChunk {
  const { chunk_id, start_offset, end_offset, start_line, end_line, page_start, page_end, hash, text, ...version } = r;
  return { version, span: { chunk_id, start_offset, end_offset, start_line, end_line, page_start, page_end, hash, text } };
}

/** What `grk status` says of a collection's history: counts only, no integrity check (that is `grk doctor`'s). */
export interface HistoryTotals {
  /** Previous versions kept. */
  versions: number;
  /** Documents with at least one previous version kept. */
  documents: number;
  /** Distinct text blocks, and their UTF-8 bytes. */
  blocks: number;
  bytes: number;
  /** When the oldest kept version was ingested, and when it stopped being current (null with none kept). */
  oldest_ingested_at: string | null;
  oldest_superseded_at: string | null;
}

/** A kept version with its spans and their text, as `grk collections copy` carries it from one store to another. */
export interface HistoryRecord {
  version: HistoryVersion & { fingerprint: string };
  /** In ordinal order; a span whose block is missing (text null) is copied without one, as it was. */
  spans: HistorySpan[];
}

/** The version rows of {@link HistoryRecord}s, with the spans of each grouped under it (both backends read pages so). */
export function groupRecords(versions: ReadonlyArray<HistoryRecord["version"]>, spans: ReadonlyArray<HistorySpan & { version_id: number }>): HistoryRecord[] {
  const byVersion = new Map<number, HistorySpan[]>(versions.map((v) => [Number(v.version_id), []]));
  for (const { version_id, ...span } of spans) byVersion.get(Number(version_id))?.push(span);
  return versions.map((version) => ({ version, spans: byVersion.get(Number(version.version_id)) ?? [] }));
}

/** What the last prune removed. */
export interface HistoryPruned {
  versions: number;
  blocks: number;
}

/** Totals and integrity of a collection's history, for `status` and `doctor`. */
export interface HistoryHealth {
  versions: number;
  blocks: number;
  /** UTF-8 bytes of the distinct blocks. */
  bytes: number;
  /** Spans naming a block that is not stored. */
  dangling: number;
  /** Blocks whose text does not hash to their key. */
  mismatched: number;
  /** Up to a few block hashes of each kind, for the report. */
  examples: string[];
}

/**
 * A version's text put back together from its chunk spans. Chunks cover every
 * non-whitespace code point of a document (ingest/chunker.ts); what lies
 * between two chunks is whitespace, rebuilt from the line numbers as newlines
 * (then spaces). `exact` says whether the result hashes to the version's
 * content hash; the text inside every chunk is exact either way.
 */
export function assembleVersion(
  version: Pick<HistoryVersion, "content_hash" | "content_length">,
  spans: ReadonlyArray<Pick<HistorySpan, "start_offset" | "end_offset" | "start_line" | "text">>,
): { text: string; exact: boolean; complete: boolean } {
  const parts: string[] = [];
  let at = 0;
  let line = 1;
  let complete = true;
  for (const s of [...spans].sort((a, b) => a.start_offset - b.start_offset)) {
    if (s.text === null) {
      complete = false;
      continue;
    }
    if (s.end_offset <= at) continue;
    if (s.start_offset > at) {
      parts.push(gap(s.start_offset - at, s.start_line - line));
      at = s.start_offset;
      line = s.start_line;
    }
    const text = new CodePointText(s.text);
    const piece = text.slice(at - s.start_offset, text.length);
    parts.push(piece);
    line += countNewlines(piece);
    at = s.end_offset;
  }
  // After the last chunk: text files end in newlines far more often than in spaces. The recorded
  // length counts UTF-16 code units (ingest stores the content string's length); whitespace is one unit each.
  let text = parts.join("");
  if (version.content_length > text.length) text += "\n".repeat(version.content_length - text.length);
  return { text, exact: complete && sha256(text) === version.content_hash, complete };
}

function gap(length: number, newlines: number): string {
  const n = Math.max(0, Math.min(newlines, length));
  return "\n".repeat(n) + " ".repeat(length - n);
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return n;
}
