/**
 * A collection's chunking is recorded at its first ingest and reused by every
 * later one, whichever surface (CLI, REST, MCP, a watcher, the library) runs
 * it; only an explicit request for other settings re-chunks, and says so.
 */
import { DEFAULTS } from "../core/config.js";
import type { ChunkSettings } from "./build-chunks.js";
import { validateChunkerOptions } from "./chunker.js";

/**
 * Version of the chunking rules. Bump it when the chunker would cut the same
 * content differently, so recorded settings from older rules are not reused blindly.
 */
export const CHUNKER_VERSION = 1;

/** The chunking a collection records (meta key `chunker`). */
export interface RecordedChunking {
  chunk_size: number;
  chunk_overlap: number;
  chunker_version: number;
}

/** The chunking an ingest run uses, and whether it changed the collection's recorded one. */
export interface ChunkingDecision {
  chunk_size: number;
  chunk_overlap: number;
  chunker_version: number;
  /** Every document is re-chunked in this run (the settings differ from the recorded ones). */
  rechunked: boolean;
  /** The settings recorded before this run (null for a new collection). */
  previous: RecordedChunking | null;
}

/** Parse the recorded meta value; collections written before versions were recorded are version 1. */
export function parseRecordedChunking(meta: string | undefined): RecordedChunking | null {
  if (meta === undefined) return null;
  const raw = JSON.parse(meta) as Partial<RecordedChunking>;
  if (typeof raw.chunk_size !== "number" || typeof raw.chunk_overlap !== "number") return null;
  return { chunk_size: raw.chunk_size, chunk_overlap: raw.chunk_overlap, chunker_version: raw.chunker_version ?? 1 };
}

/**
 * Decide a run's chunking: an explicit request wins (and re-chunks when it
 * differs), else the recorded settings, else the defaults for a new collection
 * (a config file's, then the built-in ones). Throws INVALID_CONFIG on settings
 * the chunker refuses.
 */
export function decideChunking(
  recorded: RecordedChunking | null,
  explicit: Partial<ChunkSettings>,
  defaults: Partial<ChunkSettings> = {},
): ChunkingDecision {
  const base = recorded
    ? { chunkSize: recorded.chunk_size, chunkOverlap: recorded.chunk_overlap }
    : { chunkSize: defaults.chunkSize ?? DEFAULTS.chunkSize, chunkOverlap: defaults.chunkOverlap ?? DEFAULTS.chunkOverlap };
  const chunkSize = explicit.chunkSize ?? base.chunkSize;
  const chunkOverlap = explicit.chunkOverlap ?? base.chunkOverlap;
  validateChunkerOptions({ chunkSize, chunkOverlap, markdown: true });
  const rechunked =
    recorded !== null &&
    (recorded.chunk_size !== chunkSize || recorded.chunk_overlap !== chunkOverlap || recorded.chunker_version !== CHUNKER_VERSION);
  return { chunk_size: chunkSize, chunk_overlap: chunkOverlap, chunker_version: CHUNKER_VERSION, rechunked, previous: recorded };
}

/** The meta value to record for a decision. */
export function recordChunking(d: ChunkingDecision): string {
  const r: RecordedChunking = { chunk_size: d.chunk_size, chunk_overlap: d.chunk_overlap, chunker_version: d.chunker_version };
  return JSON.stringify(r);
}
