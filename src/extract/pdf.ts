/**
 * PDF text extraction with pdfjs-dist (legacy build, the one meant for Node).
 *
 * Determinism: the text depends only on the bytes and this file's rules. Fonts
 * come from pdfjs-dist's own bundled `standard_fonts/` and `cmaps/`, never from
 * the system; no font eval, no font-face loading, no fetches. Items are joined
 * in content-stream order as pdfjs reports them, with no layout heuristics.
 */
import { join } from "node:path";
import { existsSync } from "node:fs";
import type * as PdfjsModule from "pdfjs-dist/legacy/build/pdf.mjs";
import { GroundkitError } from "../core/errors.js";
import { codePointLength } from "../core/text.js";
import type { ExtractOptions, ExtractedText, Extractor } from "./extractor.js";
import { checkOutputLength, resolveExtractionLimits } from "./limits.js";
import { installedPackage, type InstalledPackage } from "./package-identity.js";
import { importKeepingBuiltins } from "./keep-builtins.js";
import { loadOptional } from "../core/optional-packages.js";

type Pdfjs = typeof PdfjsModule;
type TextContentItem = Awaited<ReturnType<PdfjsModule.PDFPageProxy["getTextContent"]>>["items"][number];

/**
 * Separator between the texts of consecutive pages. Pinned, because the join is
 * part of what "the same extractor" must reproduce at verification time; a blank
 * line keeps pages apart as paragraphs for the chunker, and `pageStarts` (not the
 * separator) is the authority on where a page begins.
 */
export const PDF_PAGE_SEPARATOR = "\n\n";

const SEPARATOR_LENGTH = codePointLength(PDF_PAGE_SEPARATOR);

/**
 * Load pdfjs-dist and build the PDF extractor.
 *
 * @example
 *   const pdf = await createPdfExtractor();
 *   const { text, pageStarts } = await pdf.extract(bytes);
 * @throws GroundkitError OPTIONAL_PACKAGE_MISSING when pdfjs-dist (an optional dependency) is not installed
 * @throws Error when pdfjs-dist is broken, or its code and package.json disagree.
 */
export async function createPdfExtractor(): Promise<Extractor> {
  const pkg = await loadOptional("pdfjs-dist", () => installedPackage("pdfjs-dist"));
  // Their bundled core-js would otherwise replace native JSON and Array.prototype.push process-wide.
  // The worker module is loaded here too (it sets globalThis.pdfjsWorker, which pdfjs then uses)
  // rather than by pdfjs's own dynamic import at the first getDocument, outside the guard.
  const pdfjs: Pdfjs = await importKeepingBuiltins(async () => {
    const lib = await import("pdfjs-dist/legacy/build/pdf.mjs");
    // @ts-expect-error: the worker module ships without type declarations; only its side effect is wanted.
    await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
    return lib;
  });
  // The identity is read from package.json; make sure it describes the code that runs.
  if (pdfjs.version !== pkg.version) {
    throw new Error(`pdfjs-dist code reports version ${pdfjs.version} but its package.json says ${pkg.version}`);
  }
  return new PdfExtractor(pdfjs, pkg);
}

class PdfExtractor implements Extractor {
  readonly kind = "pdf" as const;
  readonly identity: string;
  private readonly standardFontDataUrl: string;
  private readonly cMapUrl: string;

  constructor(
    private readonly pdfjs: Pdfjs,
    pkg: InstalledPackage,
  ) {
    this.identity = pkg.identity;
    // pdfjs in Node reads these with fs, concatenating file names: plain paths ending in "/".
    this.standardFontDataUrl = resourceDir(pkg, "standard_fonts");
    this.cMapUrl = resourceDir(pkg, "cmaps");
  }

  async extract(bytes: Uint8Array, _hints?: unknown, options?: ExtractOptions): Promise<ExtractedText> {
    const { maxOutputCodePoints } = resolveExtractionLimits(options?.limits);
    const task = this.pdfjs.getDocument({
      // pdfjs transfers (detaches) the buffer it is given: hand it a copy so the caller's bytes survive.
      // A plain Uint8Array copy: pdfjs rejects Node Buffers (whose slice() is still a Buffer).
      data: new Uint8Array(bytes),
      // 0 = errors only; pdfjs otherwise prints warnings, and stdout is reserved for results / JSON-RPC.
      verbosity: this.pdfjs.VerbosityLevel.ERRORS,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      useWorkerFetch: false,
      enableXfa: false,
      standardFontDataUrl: this.standardFontDataUrl,
      cMapUrl: this.cMapUrl,
      cMapPacked: true,
    });
    try {
      let doc: PdfjsModule.PDFDocumentProxy;
      try {
        doc = await task.promise;
      } catch (err) {
        throw openFailure(err);
      }
      const pages: string[] = [];
      const pageStarts: number[] = [];
      let offset = 0;
      for (let n = 1; n <= doc.numPages; n++) {
        let pageText: string;
        try {
          const page = await doc.getPage(n);
          const content = await page.getTextContent();
          pageText = textOfPage(content.items);
          page.cleanup();
        } catch (err) {
          throw new GroundkitError("EXTRACTION_FAILED", `PDF page ${n} could not be read: ${messageOf(err)}`, { page: n }, { cause: err });
        }
        if (n > 1) offset += SEPARATOR_LENGTH;
        pageStarts.push(offset);
        offset += codePointLength(pageText);
        // Checked per page, so a document of endless pages stops at the limit rather than at the end.
        checkOutputLength(offset, maxOutputCodePoints, options?.label);
        pages.push(pageText);
        // In Node pdfjs runs its "worker" in-process: parsing happens on the main thread and its
        // messages travel as promise microtasks, so nothing guarantees timers or I/O get a turn
        // during a long document. Yield one macrotask turn per page so progress output and
        // servers stay responsive however many pages there are.
        await yieldToEventLoop();
      }
      const title = await titleOf(doc);
      const result: ExtractedText = { text: pages.join(PDF_PAGE_SEPARATOR), pageStarts };
      if (title !== undefined) result.title = title;
      return result;
    } finally {
      // Destroys the document and its worker, releasing parsed fonts, streams and the data copy.
      await task.destroy();
    }
  }
}

function resourceDir(pkg: InstalledPackage, name: string): string {
  const dir = join(pkg.dir, name);
  if (!existsSync(dir)) throw new Error(`pdfjs-dist is missing its ${name}/ directory (${dir})`);
  return `${dir}/`;
}

/**
 * One page's text: items concatenated in pdfjs order (it inserts its own " " items
 * between words), a newline wherever an item ends a line (`hasEOL`), then every run
 * of whitespace inside a line collapsed to one space, lines trimmed, runs of blank
 * lines cut to one, and the page trimmed.
 */
function textOfPage(items: readonly TextContentItem[]): string {
  let raw = "";
  for (const item of items) {
    if (!("str" in item)) continue; // marked-content markers carry no text
    raw += item.str;
    if (item.hasEOL) raw += "\n";
  }
  return normalizePageText(raw);
}

// C0 controls other than the whitespace ones (tab, LF, VT, FF, CR, collapsed instead) and DEL: never text.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u0008\u000e-\u001f\u007f]/g;

function normalizePageText(raw: string): string {
  const lines = raw
    .replace(/\r\n?/g, "\n")
    .replace(CONTROL_CHARS, "")
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim());
  return lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

async function titleOf(doc: PdfjsModule.PDFDocumentProxy): Promise<string | undefined> {
  let metadata: Awaited<ReturnType<PdfjsModule.PDFDocumentProxy["getMetadata"]>>;
  try {
    metadata = await doc.getMetadata();
  } catch {
    // The title is optional decoration; a damaged info dictionary must not fail a document
    // whose text was read. The outcome is still a pure function of the bytes.
    return undefined;
  }
  const info = metadata.info as { Title?: unknown } | undefined;
  const candidates = [info?.Title, metadata.metadata?.get("dc:title")];
  for (const candidate of candidates) {
    if (typeof candidate !== "string") continue;
    const title = candidate.replace(CONTROL_CHARS, "").replace(/\s+/g, " ").trim();
    if (title) return title;
  }
  return undefined;
}

function openFailure(err: unknown): GroundkitError {
  const name = (err as { name?: unknown } | null)?.name;
  if (name === "PasswordException") {
    return new GroundkitError("EXTRACTION_FAILED", "The PDF is password-protected; its text cannot be extracted.", undefined, {
      cause: err,
    });
  }
  if (name === "InvalidPDFException") {
    return new GroundkitError("EXTRACTION_FAILED", `Not a readable PDF: ${messageOf(err)}`, undefined, { cause: err });
  }
  return new GroundkitError("EXTRACTION_FAILED", `The PDF could not be opened: ${messageOf(err)}`, undefined, { cause: err });
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
