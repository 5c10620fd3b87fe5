/**
 * Dispatch: which loader turns bytes into indexable content. Files route by
 * extension (.md/.markdown/.txt → text, .pdf → PDF, .html/.htm → HTML, office documents and
 * e-books → the office extractor); fetched
 * URLs route by content type. The loader's identity is recorded on the document
 * and folded into its fingerprint, so upgrading an extractor re-extracts.
 */
import { extname } from "node:path";
import type { SourceClass } from "../core/contracts.js";
import type { LocationMap } from "../core/locations.js";
import type { SourceLineMap } from "../core/source-lines.js";
import { GroundkitError } from "../core/errors.js";
import type { ExtractorKind } from "../extract/extractor.js";
import type { ExtractionLimits } from "../extract/limits.js";
import { extractedExtensions, extractorKindForExtension, getExtractorOf, type ProbeOutcome } from "../extract/registry.js";
import { decodeTextContent, TEXT_LOADER_IDENTITY } from "../source/text-loader.js";
import { sourceFileExtensions, sourceFileKind, sourceFileNames, type SourceFileKind } from "../core/code-languages.js";
import { codeLoaderRevision, loadCode, type CodeContent } from "./code/code-loader.js";

/** What a loader produces for one document. */
export interface LoadedContent {
  content: string;
  sourceClass: SourceClass;
  /** `<package>/<version>` of the extractor, for the extracted class. */
  extractor: string | null;
  /** Markdown-aware chunking applies. */
  markdown: boolean;
  pageStarts?: number[] | undefined;
  /** Which line of the source file each run of `content` came from (HTML). */
  sourceLines?: SourceLineMap | undefined;
  /** HTML: the `<pre>` blocks (code points), chunked as code blocks. */
  codeBlocks?: Array<{ start: number; end: number }> | undefined;
  /** The slide, sheet cell, chapter or heading path each run of `content` belongs to (office documents, e-books). */
  locations?: LocationMap | undefined;
  title?: string | undefined;
  /** Code and data files: the language, and for code the syntax tree to chunk along. */
  code?: CodeContent | undefined;
  /** Why the document is not indexed although it loaded (minified, generated). */
  skip?: string | undefined;
}

/** A loader: bytes in, content out, refusing bad input by name. */
export interface Loader {
  /** Identity folded into the fingerprint (known before loading, so unchanged files skip extraction). */
  identity: string;
  /**
   * Folded into a file's fingerprint with `identity`: bumped when what the loader records
   * besides the text changes (HTML source lines), so the next ingest picks it up for
   * unchanged files. Not recorded on citations, whose extractor identity stays as is.
   */
  revision?: string | undefined;
  load(bytes: Uint8Array, label: string, hints?: { charset?: string | undefined }): Promise<LoadedContent>;
}

/** See {@link Loader.revision}. */
export const HTML_LOADER_REVISION = "source-lines-1";

const TEXT_EXTENSIONS: Readonly<Record<string, boolean>> = { ".md": true, ".markdown": true, ".txt": false };

/**
 * Routes files and fetched resources to loaders; an extractor is probed only when its kind is first met.
 * Extraction runs under `extractionLimits` (defaults in extract/limits.ts).
 */
export class Dispatcher {
  constructor(
    private readonly extractorOf: (kind: ExtractorKind) => Promise<ProbeOutcome> = getExtractorOf,
    private readonly extractionLimits?: Partial<ExtractionLimits>,
  ) {}

  /** Extensions (lowercase, with dot) some loader handles. */
  supportedExtensions(): string[] {
    return [...Object.keys(TEXT_EXTENSIONS), ...extractedExtensions(), ...sourceFileExtensions()];
  }

  /** Whole file names (lowercase) some loader handles: `Dockerfile`, `Makefile`, `.env.example`. */
  supportedNames(): string[] {
    return sourceFileNames();
  }

  /** The loader for a file path, or undefined when its extension is unsupported. */
  async forPath(path: string): Promise<Loader | undefined> {
    const ext = extname(path).toLowerCase();
    if (Object.hasOwn(TEXT_EXTENSIONS, ext)) return textLoader(TEXT_EXTENSIONS[ext]!);
    const source = sourceFileKind(path);
    if (source) return codeFileLoader(source);
    const kind = extractorKindForExtension(ext);
    return kind ? this.extractedLoader(kind) : undefined;
  }

  /** The loader for a fetched resource's media type; refuses anything else. */
  async forMediaType(mediaType: string, label: string): Promise<Loader> {
    switch (mediaType) {
      case "text/html":
      case "application/xhtml+xml":
        return this.extractedLoader("html");
      case "application/pdf":
        return this.extractedLoader("pdf");
      case "text/plain":
        return textLoader(false);
      case "text/markdown":
      case "text/x-markdown":
        return textLoader(true);
      default:
        throw new GroundkitError(
          "UNSUPPORTED_TYPE",
          `${label} has content type '${mediaType || "(none)"}', which groundkit does not index.`,
        );
    }
  }

  private async extractedLoader(kind: ExtractorKind): Promise<Loader> {
    const outcome = await this.extractorOf(kind);
    if ("problem" in outcome) {
      const { problem, code } = outcome;
      return {
        identity: `unavailable:${kind}`,
        load: async (_bytes, label) => {
          throw new GroundkitError(code ?? "EXTRACTION_FAILED", `${label}: ${problem}.`);
        },
      };
    }
    const { extractor } = outcome;
    return {
      identity: extractor.identity,
      // Revision 1: chunks record the HTML file's lines (docs/decisions/0017-html-source-lines.md).
      revision: kind === "html" ? HTML_LOADER_REVISION : undefined,
      load: async (bytes, label, hints) => {
        const out = await extractor.extract(bytes, hints?.charset ? { charset: hints.charset } : undefined, {
          label,
          limits: this.extractionLimits,
        });
        return {
          content: out.text,
          sourceClass: "extracted",
          extractor: extractor.identity,
          // HTML and office headings come out as Markdown ATX headings, so heading paths work; PDF text does not.
          markdown: kind !== "pdf",
          pageStarts: out.pageStarts,
          sourceLines: out.sourceLines,
          codeBlocks: out.codeBlocks,
          locations: out.locations,
          title: out.title,
        };
      },
    };
  }
}

function textLoader(markdown: boolean): Loader {
  return {
    identity: TEXT_LOADER_IDENTITY,
    load: async (bytes, label, hints) => ({
      content: decodeTextContent(bytes, label, hints?.charset),
      sourceClass: "text",
      extractor: null,
      markdown,
    }),
  };
}

/** Code and configuration files: text-class documents with their language (ingest/code/). */
function codeFileLoader(file: SourceFileKind): Loader {
  return {
    identity: TEXT_LOADER_IDENTITY,
    revision: codeLoaderRevision(file),
    load: async (bytes, label, hints) => {
      const { content, code, skip } = await loadCode(file, bytes, label, hints?.charset);
      return { content, sourceClass: "text", extractor: null, markdown: false, code, skip };
    },
  };
}
