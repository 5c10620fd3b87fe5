/**
 * Turn loaded content into chunk rows with deterministic ids and hashes.
 */
import { chunkIdFor } from "../core/ids.js";
import { locationLabel } from "../core/locations.js";
import { sourceLineRange } from "../core/source-lines.js";
import { sha256 } from "../core/text.js";
import type { NewChunk } from "../store/store.js";
import type { CodeSymbol } from "../core/code-languages.js";
import type { ChunkSpan } from "../core/contracts.js";
import { chunkText } from "./chunker.js";
import { chunkCode } from "./code/syntax-chunker.js";
import type { LoadedContent } from "./dispatch.js";

export interface ChunkSettings {
  chunkSize: number;
  chunkOverlap: number;
}

/**
 * Chunk a document's content and prepare the rows to store. A code file with
 * a syntax tree is cut along it (and the tree freed); anything else, code
 * chunked by lines included, goes through the text chunker.
 */
export function buildChunks(source: string, loaded: LoadedContent, settings: ChunkSettings): NewChunk[] {
  const tree = loaded.code?.tree;
  let spans: Array<ChunkSpan & { symbols?: CodeSymbol[]; within?: CodeSymbol[] }>;
  if (tree) {
    try {
      spans = chunkCode(loaded.content, tree.rootNode, settings.chunkSize);
    } finally {
      tree.delete();
      loaded.code!.tree = undefined;
    }
  } else {
    spans = chunkText(loaded.content, {
      chunkSize: settings.chunkSize,
      chunkOverlap: settings.chunkOverlap,
      markdown: loaded.markdown,
      pageStarts: loaded.pageStarts,
      codeBlocks: loaded.codeBlocks,
    });
  }
  const lang = loaded.code?.lang;
  const { sourceLines, locations } = loaded;
  return spans.map((span, ordinal) => {
    const textHash = sha256(span.text);
    const fileLines = sourceLines ? sourceLineRange(sourceLines, span.start, span.end) : undefined;
    return {
      chunk_id: chunkIdFor(source, span.start, span.end, textHash),
      ordinal,
      text: span.text,
      start_offset: span.start,
      end_offset: span.end,
      start_line: span.startLine,
      end_line: span.endLine,
      page_start: span.pageStart ?? null,
      page_end: span.pageEnd ?? null,
      source_start_line: fileLines?.startLine ?? null,
      source_end_line: fileLines?.endLine ?? null,
      location: (locations && locationLabel(locations, span.start, span.end)) ?? null,
      text_hash: textHash,
      heading_path: span.headingPath,
      ...(lang !== undefined ? { code: { lang, symbols: span.symbols ?? [], within: span.within ?? [] } } : {}),
    };
  });
}
