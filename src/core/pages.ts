/**
 * Page numbers of a code-point span, from the offsets at which pages start
 * (as an extractor reports them). The chunker assigns a chunk's pages with this
 * function and verification re-checks a citation's pages with it, so both agree.
 */
import { lastAtMost } from "./sorted-search.js";

/**
 * 1-based inclusive page range of the span [start, end), given each page's start
 * offset in order (`pageStarts[0] === 0`); undefined when there are no pages.
 *
 * @example
 *   pageRange([0, 10, 20], 12, 25) // { pageStart: 2, pageEnd: 3 }
 */
export function pageRange(pageStarts: readonly number[], start: number, end: number): { pageStart: number; pageEnd: number } | undefined {
  if (pageStarts.length === 0) return undefined;
  const last = end > start ? end - 1 : start;
  return { pageStart: pageOf(pageStarts, start), pageEnd: pageOf(pageStarts, last) };
}

function pageOf(pageStarts: readonly number[], at: number): number {
  return Math.max(0, lastAtMost(pageStarts, at)) + 1;
}
