/**
 * Code-point arithmetic for the fuzz oracle, written independently of
 * src/core/text.ts on purpose: the oracle must not share the code it checks.
 * Strings are turned into arrays of code points (`Array.from`), which is slow
 * but obviously right, and the fuzz documents are small.
 */

/** The code points of `s` as an array of one-code-point strings. */
export function cps(s: string): string[] {
  return Array.from(s);
}

/** Number of code points. */
export function cpLength(s: string): number {
  return cps(s).length;
}

/** Slice by code-point offsets. */
export function cpSlice(s: string, start: number, end?: number): string {
  return cps(s).slice(start, end).join("");
}

/** Every code-point offset at which `needle` occurs in `hay` (overlapping occurrences included). */
export function cpOccurrences(hay: string, needle: string): number[] {
  if (needle.length === 0) return [];
  const out: number[] = [];
  const h = cps(hay);
  const n = cps(needle);
  outer: for (let i = 0; i + n.length <= h.length; i++) {
    for (let k = 0; k < n.length; k++) if (h[i + k] !== n[k]) continue outer;
    out.push(i);
  }
  return out;
}

/** 1-based line of code-point offset `cp` (lines split on LF only: content is normalized). */
export function lineOf(content: string, cp: number): number {
  let line = 1;
  const c = cps(content);
  for (let i = 0; i < cp && i < c.length; i++) if (c[i] === "\n") line++;
  return line;
}

/** 1-based inclusive line range of [start, end): the line of the first and of the last code point. */
export function lineRangeOf(content: string, start: number, end: number): { startLine: number; endLine: number } {
  const startLine = lineOf(content, start);
  return { startLine, endLine: end > start ? lineOf(content, end - 1) : startLine };
}
