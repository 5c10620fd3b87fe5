/**
 * The extractor seam for the `extracted` source class.
 *
 * An extractor turns a file's bytes into text deterministically: same bytes and
 * same identity in, same text out, with nothing consulted besides the bytes, the
 * caller's hints and the extractor's own pinned configuration (no clock, no
 * randomness, no system fonts, no auto-selected parser). Citations into an
 * extracted document record `identity`; verification re-runs the extractor with
 * that exact identity, so the identity must change whenever the output might.
 */
import type { LocationMap } from "../core/locations.js";
import type { SourceLineMap } from "../core/source-lines.js";
import type { JobOwner } from "./job-owner.js";
import type { ExtractionLimits } from "./limits.js";

/** The formats the `extracted` source class knows how to read. */
export type ExtractorKind = "pdf" | "html" | "office";

/** What an extractor produces from one file. */
export interface ExtractedText {
  /** The extracted text, normalized: LF newlines only, identical for identical input. */
  text: string;
  /**
   * PDFs only: the code-point offset in `text` at which each page starts, in page
   * order (`pageStarts[0] === 0`). Page `i` (0-based) covers
   * `[pageStarts[i], pageStarts[i + 1])`, separator included.
   */
  pageStarts?: number[];
  /**
   * HTML only: which line of the file (after decoding, CRLF and lone CR counting as
   * one line end) each run of `text` came from.
   */
  sourceLines?: SourceLineMap;
  /**
   * HTML only: the `<pre>` blocks' ranges in `text` (code points, `[start, end)`), so
   * the chunker treats them as code (a `# comment` line is not a heading) without
   * fences in the text.
   */
  codeBlocks?: Array<{ start: number; end: number }>;
  /**
   * Office documents and e-books only: the slide, sheet cell, chapter or heading
   * path each run of `text` belongs to (docs/decisions/0022-office-documents.md).
   */
  locations?: LocationMap;
  /** The HTML `<title>`, the PDF metadata title or the office document's title, when present and non-empty. */
  title?: string;
}

/** Hints from the caller that the bytes alone may not carry. */
export interface ExtractHints {
  /**
   * A charset label from outside the document (e.g. an HTTP `Content-Type`),
   * any label the WHATWG Encoding Standard / Node's `TextDecoder` accepts.
   * Ignored by the PDF extractor.
   */
  charset?: string;
}

/** How one extraction is bounded and named (see limits.ts). */
export interface ExtractOptions {
  /** Names the file in refusals (a path or a sanitized URL). */
  label?: string | undefined;
  /**
   * Budgets; those not given take the defaults of limits.ts. An extractor
   * running in this thread enforces `maxOutputCodePoints`; the isolated extractors
   * the registry hands out (extraction-pool.ts) enforce all of them.
   */
  limits?: Partial<ExtractionLimits> | undefined;
  /**
   * Whom the work is for (default: the process itself, never cancelled). The
   * isolated extractors queue it under the owner's client and drop or abandon
   * it once the owner's signal aborts (REQUEST_CANCELLED).
   */
  owner?: JobOwner | undefined;
}

/**
 * A deterministic bytes-to-text converter for one format.
 *
 * @example
 *   const registry = await getExtractorRegistry();
 *   const pdf = registry.get("pdf");
 *   if (pdf) {
 *     const { text, pageStarts } = await pdf.extract(bytes);
 *     // record pdf.identity ("pdfjs-dist/5.6.205") with the document
 *   }
 */
export interface Extractor {
  readonly kind: ExtractorKind;
  /** `"<npm package>/<installed version>"`, read from the package's package.json at run time. */
  readonly identity: string;
  /**
   * Extract text from `bytes`. Never mutates or detaches `bytes`.
   *
   * @throws GroundkitError `EXTRACTION_FAILED` when the input cannot be parsed;
   *   `FILE_NOT_UTF8` when HTML declared (or defaulted to) UTF-8 is not valid UTF-8;
   *   `EXTRACTION_LIMIT` when a budget of `options.limits` ran out.
   */
  extract(bytes: Uint8Array, hints?: ExtractHints, options?: ExtractOptions): Promise<ExtractedText>;
}
