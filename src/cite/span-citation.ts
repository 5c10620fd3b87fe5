/**
 * A citation for a span inside something already cited: a quote found in a
 * passage, or in a document's current text. The span gets its own exact
 * code-point offsets, lines, pages and hash, so it verifies on its own like any
 * passage's citation (`grk verify`, `verify_citation`).
 */
import type { Citation } from "../core/contracts.js";
import { locationLabel, type LocationMap } from "../core/locations.js";
import { pageRange } from "../core/pages.js";
import { sourceLineRange, type SourceLineMap } from "../core/source-lines.js";
import { CodePointText, sha256 } from "../core/text.js";

/** The document fields every citation of one document shares. */
export type DocumentFields = Pick<Citation, "document_id" | "source" | "source_class" | "extractor">;

/** Where a document's pages start and where its text came from, as a re-read reported them. */
export interface ContentLocation {
  /** Where the source's pages start ([] for none); undefined when the class cannot say. */
  pageStarts?: readonly number[] | undefined;
  /** Which source-file line each run of the content came from; undefined when unknown. */
  sourceLines?: SourceLineMap | undefined;
  /** Where each run of the content sits in an office document or e-book; undefined for other sources. */
  locations?: LocationMap | undefined;
}

/**
 * The citation of code points [start, end) of a document's current `content`,
 * with lines, pages and source-file lines computed as verification computes them.
 *
 * @param fallbackPages pages to claim when `pageStarts` is unknown (the enclosing passage's)
 */
export function spanCitationInContent(
  doc: DocumentFields,
  chunkId: string,
  content: CodePointText,
  { pageStarts, sourceLines, locations }: ContentLocation,
  start: number,
  end: number,
  fallbackPages: Pick<Citation, "page_start" | "page_end"> = { page_start: null, page_end: null },
): Citation {
  const lines = content.lineRange(start, end);
  const pages = pageStarts === undefined ? undefined : pageRange(pageStarts, start, end);
  const fileLines = sourceLines && sourceLineRange(sourceLines, start, end);
  const location = locations && locationLabel(locations, start, end);
  return {
    ...documentFields(doc),
    chunk_id: chunkId,
    start_offset: start,
    end_offset: end,
    start_line: lines.startLine,
    end_line: lines.endLine,
    page_start: pageStarts === undefined ? (fallbackPages.page_start ?? null) : (pages?.pageStart ?? null),
    page_end: pageStarts === undefined ? (fallbackPages.page_end ?? null) : (pages?.pageEnd ?? null),
    ...(fileLines ? { source_start_line: fileLines.startLine, source_end_line: fileLines.endLine } : {}),
    ...(location ? { location } : {}),
    text_hash: sha256(content.slice(start, end)),
  };
}

/**
 * The citation of code points [start, end) of a passage's own text, from what
 * the passage's citation records: used when its source can no longer be read
 * as it was (the span's verification then says so). Lines count the passage's
 * line breaks; a passage on one page puts the span there, one across pages
 * can only claim its whole range (so can a passage's source-file lines).
 */
export function spanCitationInPassage(passage: Citation, passageText: string, start: number, end: number): Citation {
  const text = new CodePointText(passageText);
  const lines = text.lineRange(start, end);
  return {
    ...documentFields(passage),
    chunk_id: passage.chunk_id,
    start_offset: passage.start_offset + start,
    end_offset: passage.start_offset + end,
    start_line: passage.start_line + lines.startLine - 1,
    end_line: passage.start_line + lines.endLine - 1,
    page_start: passage.page_start ?? null,
    page_end: passage.page_end ?? null,
    ...(passage.source_start_line != null && passage.source_end_line != null
      ? { source_start_line: passage.source_start_line, source_end_line: passage.source_end_line }
      : {}),
    ...(passage.location != null ? { location: passage.location } : {}),
    text_hash: sha256(text.slice(start, end)),
  };
}

function documentFields(doc: DocumentFields): DocumentFields {
  return { document_id: doc.document_id, source: doc.source, source_class: doc.source_class, extractor: doc.extractor };
}
