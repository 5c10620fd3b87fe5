/**
 * Deterministic ids: re-ingesting unchanged content yields the same ids, so
 * citations printed earlier keep pointing at the same chunk.
 */
import { sha256 } from "./text.js";

/** A document id derived from its source (absolute path or sanitized URL). */
export function documentIdFor(source: string): string {
  return sha256(`document\0${source}`).slice(0, 32);
}

/** A chunk id derived from its source, code-point offsets and text hash. */
export function chunkIdFor(source: string, start: number, end: number, textHash: string): string {
  return sha256(`chunk\0${source}\0${start}\0${end}\0${textHash}`).slice(0, 32);
}
