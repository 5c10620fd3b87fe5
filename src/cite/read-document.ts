/**
 * Reading a line range of a document's indexed text, with a citation for it.
 * The text is read back the way verification reads it (indexed source only,
 * containment first, the recorded extractor, the stored snapshot) and served
 * only when its hash is the one recorded at ingest: then it *is* the indexed
 * text, the citation verifies, and its lines are the lines the index knows.
 *
 * Lines are the source file's whenever that can be told: a text document's
 * content is its file, and an HTML document's extractor says which file line
 * each piece of its text came from, so `page.html:120-134` (as search prints
 * it) reads the text that came from lines 120-134 of the HTML. Other extracted
 * documents (PDF) and snapshots count lines of their extracted text.
 */
import type { Citation, Verification } from "../core/contracts.js";
import { GroundkitError } from "../core/errors.js";
import { extractedSpanOfSourceLines, sourceLineAt, sourceLineRange, type SourceLineMap } from "../core/source-lines.js";
import { sha256, type CodePointText } from "../core/text.js";
import type { StoredDocument } from "../store/store.js";
import { ResolutionError } from "./resolution-error.js";
import { spanCitationInContent } from "./span-citation.js";
import type { LocationMap } from "../core/locations.js";
import { assertIndexedSource } from "./indexed-source.js";
import { codePointsOf, obtainContent, type VerifyContext } from "./verify.js";
import { wholeDocumentCitation } from "./read-indexed.js";

/** Code points `get` returns when no budget is named, and the most it ever returns. */
export const DOCUMENT_CHARS = { default: 20_000, max: 200_000 } as const;

/** Which lines to read and how much at most. */
export interface LineRangeRequest {
  /** First line, 1-based (default 1). */
  startLine?: number | undefined;
  /** Last line, inclusive (default: the last line, within the budget). */
  endLine?: number | undefined;
  /** Most code points of text returned; a range that does not fit ends at the last whole line that does. */
  maxChars: number;
}

/** A line range of a document's indexed text. */
export interface DocumentLines {
  /**
   * What the line numbers count: `file` (lines of the source file: a text file,
   * or the HTML an extracted text came from) or `extracted text` (PDF, snapshot).
   */
  lines_of: "file" | "extracted text";
  start_line: number;
  end_line: number;
  /** Lines in the whole document (for HTML: the last line of the file any indexed text came from). */
  total_lines: number;
  text: string;
  /** Whether the range asked for was cut to fit the budget; `next_line` continues it. */
  truncated: boolean;
  /** The line to ask for next (null at the end of the range asked for). */
  next_line: number | null;
  citation: Citation;
  verification: Verification;
}

/**
 * Read lines of `doc`'s indexed text. `chunkIdAt` names the chunk a citation
 * of the range points into (the chunk holding its first code point).
 *
 * @throws GroundkitError DOCUMENT_UNAVAILABLE when the source cannot be read or no longer holds the indexed text;
 *   INVALID_ARGUMENT for a range outside the document.
 */
export async function readDocumentLines(
  doc: StoredDocument,
  request: LineRangeRequest,
  ctx: VerifyContext,
  chunkIdAt: (offset: number) => Promise<string | undefined>,
): Promise<DocumentLines> {
  // Only source, class and extractor matter for reading; the span is the whole text.
  const whole = wholeDocumentCitation(doc);
  let content: CodePointText;
  let pageStarts: readonly number[] | undefined;
  let sourceLines: SourceLineMap | undefined;
  let locations: LocationMap | undefined;
  try {
    assertIndexedSource(whole, doc, ctx.collection);
    const source = await obtainContent(whole, ctx);
    content = codePointsOf(source);
    pageStarts = source.pageStarts;
    sourceLines = source.sourceLines;
    locations = source.locations;
  } catch (err) {
    if (err instanceof ResolutionError) throw unavailable(doc, err.detail);
    throw err;
  }
  if (sha256(content.text) !== doc.content_hash) {
    throw unavailable(doc, "its source has changed since it was indexed, so its indexed text is not what the source says now");
  }
  if (sourceLines && sourceLines.starts.length > 0) {
    return readFileLines(doc, request, { whole, content, pageStarts, sourceLines }, chunkIdAt);
  }
  const totalLines = content.lineAt(content.length);
  const first = request.startLine ?? 1;
  const asked = Math.min(request.endLine ?? totalLines, totalLines);
  if (first < 1 || first > totalLines) {
    throw new GroundkitError("INVALID_ARGUMENT", `Line ${first} is outside ${doc.source}, which has ${totalLines} line(s).`);
  }
  if (asked < first) throw new GroundkitError("INVALID_ARGUMENT", `The line range ${first}-${asked} is empty.`);
  const start = lineStart(content, first);
  let last = asked;
  let end = lineEnd(content, last, totalLines);
  let truncated = false;
  // Shrink to the last whole line inside the budget; a single line longer than it is cut at the budget.
  if (end - start > request.maxChars) {
    truncated = true;
    while (last > first && lineEnd(content, last, totalLines) - start > request.maxChars) last--;
    end = Math.min(lineEnd(content, last, totalLines), start + request.maxChars);
  }
  const cutMidLine = end < lineEnd(content, last, totalLines);
  // Empty lines at the end of a range hold no code point: the range (and its citation) ends with the last line that has one.
  const lines = content.lineRange(start, end);
  if (!cutMidLine) end = Math.max(start, Math.min(end, lineEnd(content, lines.endLine, totalLines)));
  const text = content.slice(start, end);
  const citation = spanCitationInContent(whole, (await chunkIdAt(start)) ?? doc.document_id, content, { pageStarts, locations }, start, end);
  const next = truncated && !cutMidLine ? lines.endLine + 1 : null;
  return {
    lines_of: doc.source_class === "text" ? "file" : "extracted text",
    start_line: lines.startLine,
    end_line: lines.endLine,
    total_lines: totalLines,
    text,
    truncated,
    next_line: next,
    citation,
    verification: { verdict: "verified", detail: `the text at code points ${start}-${end} is the document's indexed text.` },
  };
}

/** The document as read back, for {@link readFileLines}. */
interface ReadBack {
  whole: Citation;
  content: CodePointText;
  pageStarts: readonly number[] | undefined;
  sourceLines: SourceLineMap;
}

/**
 * Lines `first`..`last` of an extracted document's source file: the extracted
 * text that came from them (the separators after the last one left out). A range
 * over the budget ends with the last file line that fits, or mid-line when even
 * the first does not.
 */
async function readFileLines(
  doc: StoredDocument,
  request: LineRangeRequest,
  { whole, content, pageStarts, sourceLines }: ReadBack,
  chunkIdAt: (offset: number) => Promise<string | undefined>,
): Promise<DocumentLines> {
  const totalLines = sourceLines.lines[sourceLines.lines.length - 1]!;
  const first = request.startLine ?? 1;
  const asked = Math.min(request.endLine ?? totalLines, totalLines);
  if (first < 1 || first > totalLines) {
    throw new GroundkitError(
      "INVALID_ARGUMENT",
      `Line ${first} is outside the text of ${doc.source}: its indexed text comes from lines 1-${totalLines} of the file.`,
    );
  }
  if (asked < first) throw new GroundkitError("INVALID_ARGUMENT", `The line range ${first}-${asked} is empty.`);
  const spanOf = (last: number): { start: number; end: number } | undefined => {
    const span = extractedSpanOfSourceLines(sourceLines, content.length, first, last);
    if (!span) return undefined;
    let end = span.end;
    while (end > span.start && /\s/u.test(content.slice(end - 1, end))) end--;
    return { start: span.start, end };
  };
  const found = spanOf(asked);
  if (!found) {
    throw new GroundkitError(
      "INVALID_ARGUMENT",
      `Lines ${first}-${asked} of ${doc.source} hold no indexed text (only markup, scripts, styles or blank lines); ` +
        "search for the text, or ask for a wider range.",
    );
  }
  const { start } = found;
  let { end } = found;
  let last = asked;
  let truncated = false;
  if (end - start > request.maxChars) {
    truncated = true;
    // No line after the one holding the budget's last code point fits; step down from there.
    last = Math.max(first, Math.min(last, sourceLineAt(sourceLines, start + request.maxChars)));
    while (last > first && (spanOf(last)?.end ?? start) - start > request.maxChars) last--;
    end = Math.min(spanOf(last)?.end ?? start, start + request.maxChars);
  }
  const cutMidLine = end < (spanOf(last)?.end ?? start);
  const fileLines = sourceLineRange(sourceLines, start, end)!;
  const text = content.slice(start, end);
  const citation = spanCitationInContent(whole, (await chunkIdAt(start)) ?? doc.document_id, content, { pageStarts, sourceLines }, start, end);
  // Continue at the next file line that holds text.
  const following = sourceLines.lines.find((line) => line > fileLines.endLine);
  const next = truncated && !cutMidLine ? (following ?? null) : null;
  return {
    lines_of: "file",
    start_line: fileLines.startLine,
    end_line: fileLines.endLine,
    total_lines: totalLines,
    text,
    truncated,
    next_line: next,
    citation,
    verification: { verdict: "verified", detail: `the text at code points ${start}-${end} is the document's indexed text.` },
  };
}

/** Code-point offset where 1-based `line` starts. */
function lineStart(content: CodePointText, line: number): number {
  if (line === 1) return 0;
  // The offset after the (line-1)-th newline, found by binary search on lineAt.
  let lo = 0;
  let hi = content.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (content.lineAt(mid) < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Code-point offset where `line` ends, its newline excluded. */
function lineEnd(content: CodePointText, line: number, totalLines: number): number {
  return line >= totalLines ? content.length : lineStart(content, line + 1) - 1;
}

function unavailable(doc: StoredDocument, why: string): GroundkitError {
  return new GroundkitError("DOCUMENT_UNAVAILABLE", `The indexed text of ${doc.source} cannot be read: ${why}`, {
    document_id: doc.document_id,
  });
}
