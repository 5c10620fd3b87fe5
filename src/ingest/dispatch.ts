/**
 * Dispatch: which loader turns a file's bytes into indexable content. Routed by
 * extension; the loader's identity is recorded and folded into the fingerprint.
 */
import { extname } from "node:path";
import type { SourceClass } from "../core/contracts.js";
import { decodeTextContent, TEXT_LOADER_IDENTITY } from "./text-loader.js";

/** What a loader produces for one document. */
export interface LoadedContent {
  content: string;
  sourceClass: SourceClass;
  /** `<package>/<version>` of the extractor, for the extracted class. */
  extractor: string | null;
  /** Identity folded into the fingerprint (the extractor for extracted documents). */
  loaderIdentity: string;
  /** Markdown-aware chunking applies. */
  markdown: boolean;
  pageStarts?: number[] | undefined;
  title?: string | undefined;
}

export type Loader = (bytes: Uint8Array, label: string) => Promise<LoadedContent>;

const TEXT_EXTENSIONS: Record<string, boolean> = { ".md": true, ".markdown": true, ".txt": false };

const textLoader =
  (markdown: boolean): Loader =>
  async (bytes, label) => ({
    content: decodeTextContent(bytes, label),
    sourceClass: "text",
    extractor: null,
    loaderIdentity: TEXT_LOADER_IDENTITY,
    markdown,
  });

/** Extensions (lowercase, with dot) that some loader handles. */
export function supportedExtensions(): string[] {
  return Object.keys(TEXT_EXTENSIONS);
}

/** The loader for a path, or undefined when its extension is unsupported. */
export function loaderFor(path: string): Loader | undefined {
  const ext = extname(path).toLowerCase();
  if (ext in TEXT_EXTENSIONS) return textLoader(TEXT_EXTENSIONS[ext]!);
  return undefined;
}
