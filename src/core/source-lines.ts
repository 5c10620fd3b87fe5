/**
 * Lines of the source file an extracted text came from. An extractor that knows
 * where each piece of its output came from (HTML: the parser's position of each
 * text node) reports a {@link SourceLineMap}; the chunker gives each chunk its
 * source-line range with {@link sourceLineRange}, and verification re-derives
 * the map from the same extractor and checks a citation's source lines with the
 * same function, so both agree (docs/decisions/0017-html-source-lines.md).
 */
import { firstAtLeast, lastAtMost } from "./sorted-search.js";

/**
 * Sorted runs of the extracted text: the code points from `starts[i]` up to
 * `starts[i + 1]` came from line `lines[i]` (1-based) of the source file.
 * `starts` is strictly increasing from 0 and `lines` never decreases (the text
 * is written in document order). Empty for an empty text.
 */
export interface SourceLineMap {
  starts: number[];
  lines: number[];
}

/**
 * 1-based inclusive source-line range of the extracted span [start, end) (an
 * empty span: the line of `start`); undefined when the map is empty.
 *
 * @example
 *   sourceLineRange({ starts: [0, 10], lines: [3, 7] }, 4, 12) // { startLine: 3, endLine: 7 }
 */
export function sourceLineRange(map: SourceLineMap, start: number, end: number): { startLine: number; endLine: number } | undefined {
  if (map.starts.length === 0) return undefined;
  const startLine = sourceLineAt(map, start);
  const endLine = end > start ? sourceLineAt(map, end - 1) : startLine;
  return { startLine, endLine: Math.max(startLine, endLine) };
}

/** The source line of extracted code point `at`. */
export function sourceLineAt(map: SourceLineMap, at: number): number {
  return map.lines[Math.max(0, lastAtMost(map.starts, at))]!;
}

/**
 * The extracted span [start, end) holding exactly the text that came from
 * source lines `first`..`last`; undefined when no text came from them.
 *
 * @param length the extracted text's length in code points
 */
export function extractedSpanOfSourceLines(
  map: SourceLineMap,
  length: number,
  first: number,
  last: number,
): { start: number; end: number } | undefined {
  const { starts, lines } = map;
  // Lines never decrease, so the runs from those lines are one stretch.
  const from = firstAtLeast(lines, first);
  const to = lastAtMost(lines, last);
  if (from > to) return undefined;
  return { start: starts[from]!, end: to + 1 < starts.length ? starts[to + 1]! : length };
}
