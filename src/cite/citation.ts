/**
 * Building a citation from a stored chunk.
 */
import type { Citation } from "../core/contracts.js";
import type { StoredChunk } from "../store/store.js";

/** The citation for a stored chunk: document, source, class, offsets, lines, page, source-file lines (when known), text hash. */
export function citationOf(chunk: StoredChunk): Citation {
  return {
    document_id: chunk.document.document_id,
    chunk_id: chunk.chunk_id,
    source: chunk.document.source,
    source_class: chunk.document.source_class,
    extractor: chunk.document.extractor,
    start_offset: chunk.start_offset,
    end_offset: chunk.end_offset,
    start_line: chunk.start_line,
    end_line: chunk.end_line,
    page_start: chunk.page_start,
    page_end: chunk.page_end,
    // Only when known, so text and PDF citations keep their shape.
    ...(chunk.source_start_line != null && chunk.source_end_line != null
      ? { source_start_line: chunk.source_start_line, source_end_line: chunk.source_end_line }
      : {}),
    ...(chunk.location != null ? { location: chunk.location } : {}),
    text_hash: chunk.text_hash,
  };
}
