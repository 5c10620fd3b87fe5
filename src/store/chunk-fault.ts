/**
 * What `grk doctor` finds wrong with a document's chunk rows, the same on every
 * backend (sqlite/row-health.ts, postgres/store-health.ts).
 */
import { codePointLength, sha256 } from "../core/text.js";
import type { NewChunk } from "./store.js";

/** Prefix of a fingerprint no source can have: the next ingest re-reads the document. */
export const STALE = "stale:";

/** Documents reported by name at most (the count is always exact). */
export const MAX_NAMED = 20;

export type ChunkRow = Pick<NewChunk, "ordinal" | "text" | "start_offset" | "end_offset" | "start_line" | "end_line" | "text_hash">;

/** The first thing wrong with one chunk of a document of `contentLength` code points, if anything. */
export function chunkFault(c: ChunkRow, expectedOrdinal: number, contentLength: number): string | undefined {
  if (c.ordinal !== expectedOrdinal) return `chunk ordinals are not 0..n-1 (found ${c.ordinal} where ${expectedOrdinal} belongs)`;
  if (!(c.start_offset >= 0 && c.start_offset < c.end_offset && c.end_offset <= contentLength)) {
    return `chunk ${c.ordinal} spans [${c.start_offset}, ${c.end_offset}) outside the document's ${contentLength} code points`;
  }
  if (codePointLength(c.text) !== c.end_offset - c.start_offset) return `chunk ${c.ordinal}'s text is not as long as its span`;
  if (sha256(c.text) !== c.text_hash) return `chunk ${c.ordinal}'s text does not match its hash`;
  if (!(c.start_line >= 1 && c.start_line <= c.end_line)) return `chunk ${c.ordinal} has lines ${c.start_line}-${c.end_line}`;
  return undefined;
}
