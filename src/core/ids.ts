/**
 * Deterministic ids: re-ingesting unchanged content yields the same ids, so
 * citations printed earlier keep pointing at the same chunk.
 */
import { sha256 } from "./text.js";

/** A document id derived from its source (absolute path or sanitized URL). */
export function documentIdFor(source: string): string {
  return sha256(`document\0${source}`).slice(0, 32);
}

/**
 * The document metadata field listing the sources a document had before it
 * moved (oldest first, at most {@link MAX_FORMER_SOURCES}): a citation naming
 * one of them is followed to the document's current source; any other source
 * under the document's id is a claim the collection does not vouch for.
 */
export const MOVED_FROM_FIELD = "moved_from";
export const MAX_FORMER_SOURCES = 32;

/** The former sources recorded in a document's metadata. */
export function formerSources(metadata: Record<string, unknown> | undefined): string[] {
  const list = metadata?.[MOVED_FROM_FIELD];
  return Array.isArray(list) ? list.filter((s): s is string => typeof s === "string") : [];
}

/** A chunk id derived from its source, code-point offsets and text hash. */
export function chunkIdFor(source: string, start: number, end: number, textHash: string): string {
  return sha256(`chunk\0${source}\0${start}\0${end}\0${textHash}`).slice(0, 32);
}
