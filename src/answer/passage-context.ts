/**
 * The document text around a passage, rebuilt from the document's stored
 * chunks, so redaction can see a secret that straddles the passage's edge.
 * Chunks are placed at their code-point offsets (overlaps read once, gaps
 * between chunks filled with line breaks, which keeps every offset true).
 */
import { CodePointText } from "../core/text.js";
import type { PassageContext } from "./redaction.js";

/** Code points of document text kept on each side of a passage. */
export const CONTEXT_RADIUS = 8_192;

/** A stored chunk as the window needs it. */
export interface ChunkPiece {
  text: string;
  /** Code-point offsets in the document. */
  start_offset: number;
  end_offset: number;
}

/**
 * The text of `chunks` within `radius` code points of [start, end), holding the
 * passage `text` at the returned UTF-16 offset; undefined when the chunks do not
 * reproduce the passage (the caller then redacts the passage alone).
 *
 * @example
 *   passageContext(chunksOf(doc), hit.text, hit.citation.start_offset, hit.citation.end_offset)
 */
export function passageContext(
  chunks: readonly ChunkPiece[],
  text: string,
  start: number,
  end: number,
  radius = CONTEXT_RADIUS,
): PassageContext | undefined {
  const near = chunks.filter((c) => c.end_offset > start - radius && c.start_offset < end + radius).sort((a, b) => a.start_offset - b.start_offset);
  if (near.length === 0) return undefined;
  let out = "";
  let pos = near[0]!.start_offset;
  const origin = pos;
  for (const c of near) {
    if (c.start_offset > pos) {
      out += "\n".repeat(c.start_offset - pos);
      pos = c.start_offset;
    }
    if (c.end_offset <= pos) continue;
    const piece = new CodePointText(c.text);
    out += piece.slice(pos - c.start_offset, piece.length);
    pos = c.start_offset + piece.length;
  }
  if (start < origin) return undefined;
  const at = new CodePointText(out).toUtf16(start - origin);
  return out.slice(at, at + text.length) === text ? { text: out, at } : undefined;
}
