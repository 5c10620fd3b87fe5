/** A ScoredChunk for fusion tests: the fields a test cares about, the rest filled with neutral values. */
import type { ScoredChunk } from "../../src/store/store.js";

export interface ChunkFields {
  chunk_id: string;
  text: string;
  text_hash: string;
  source: string;
  score: number;
  code?: ScoredChunk["code"];
}

export function scoredChunk(f: ChunkFields): ScoredChunk {
  return {
    chunk_id: f.chunk_id,
    ordinal: 0,
    text: f.text,
    start_offset: 0,
    end_offset: f.text.length,
    start_line: 1,
    end_line: 1,
    page_start: null,
    page_end: null,
    source_start_line: null,
    source_end_line: null,
    location: null,
    text_hash: f.text_hash,
    heading_path: [],
    ...(f.code !== undefined ? { code: f.code } : {}),
    document: {
      document_id: `d-${f.chunk_id}`,
      source: f.source,
      source_class: "text",
      extractor: null,
      base_dir: null,
      fingerprint: f.text_hash,
      content_hash: f.text_hash,
      content_length: f.text.length,
      ingested_at: "2026-12-03T00:00:00Z",
      metadata: {},
    },
    score: f.score,
  };
}
