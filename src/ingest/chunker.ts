/**
 * The chunker: cuts a document's content into spans whose offsets are exact
 * Unicode code points, so `chunk.text === content.slice(start, end)` in code
 * points for every chunk.
 *
 * How a cut is chosen. Every position where a chunk may start gets a level:
 * heading (Markdown) > paragraph (a blank line, or the edge of a fenced code
 * block) > line > sentence > word > hard (any code point). A chunk starting at
 * `p` ends at the LAST break of the HIGHEST level found in its window
 * (`p`, `p + chunkSize`]; with no break at all, it is cut hard at the window's
 * end. This greedy rule is what a recursive separator splitter produces (pack
 * pieces of one level while they fit, split larger pieces at the next level)
 * but needs no recursion and runs in linear time.
 *
 * Overlap. A chunk that had to be cut inside a block (line, sentence, word or
 * hard cut) makes the next chunk start up to `chunkOverlap` code points earlier,
 * at the earliest line, sentence or word start in that range, so context flows
 * across the cut. A cut at a block boundary (heading, paragraph, fence) starts
 * the next chunk cleanly with no overlap: that keeps a section's first chunk
 * starting at its heading and a fenced block whole when it fits.
 *
 * Internally everything is UTF-16 indexes; code points are measured through
 * one `CodePointText` and offsets converted once at the end.
 */
import type { ChunkSpan } from "../core/contracts.js";
import { DEFAULTS } from "../core/config.js";
import { GroundkitError } from "../core/errors.js";
import { CodePointText } from "../core/text.js";
import { pageRange } from "../core/pages.js";
import { firstAtLeast, lastAtMost } from "../core/sorted-search.js";
import { scanMarkdownStructure, type MarkdownHeading, type MarkdownStructure } from "./markdown-structure.js";

/** How `chunkText` cuts a document. */
export interface ChunkerOptions {
  /** Target maximum chunk length in code points. */
  chunkSize: number;
  /** Code points of overlap between consecutive chunks (< chunkSize / 2). */
  chunkOverlap: number;
  /** Treat the content as Markdown (headings, fenced code). */
  markdown: boolean;
  /** Optional: code-point offset where each page starts (pages[0] === 0), for PDFs. */
  pageStarts?: number[] | undefined;
  /**
   * Optional, with `markdown`: code blocks the extractor found (HTML `<pre>`), code-point
   * ranges treated like fenced code (no headings inside, kept whole when they fit).
   */
  codeBlocks?: ReadonlyArray<{ start: number; end: number }> | undefined;
}

/** Smallest accepted `chunkSize`, in code points. */
export const MIN_CHUNK_SIZE = 64;
/** Largest accepted `chunkSize`, in code points. */
export const MAX_CHUNK_SIZE = 1_000_000;

/**
 * Default size and overlap (code points), the collection defaults chosen by
 * evaluation (docs/decisions/0002-chunking-defaults.md).
 *
 * @example
 *   chunkText(content, { ...DEFAULT_CHUNKER_OPTIONS, markdown: true });
 */
export const DEFAULT_CHUNKER_OPTIONS: Readonly<Omit<ChunkerOptions, "markdown" | "pageStarts">> = Object.freeze({
  chunkSize: DEFAULTS.chunkSize,
  chunkOverlap: DEFAULTS.chunkOverlap,
});

/**
 * Check chunker options; throws `INVALID_CONFIG` for a bad size, overlap or
 * markdown flag, and `INVALID_ARGUMENT` for malformed `pageStarts`.
 *
 * @example
 *   validateChunkerOptions({ chunkSize: 1200, chunkOverlap: 600, markdown: false }); // throws: overlap too large
 */
export function validateChunkerOptions(o: unknown): asserts o is ChunkerOptions {
  if (typeof o !== "object" || o === null) {
    throw new GroundkitError("INVALID_CONFIG", "Chunker options must be an object.");
  }
  const { chunkSize, chunkOverlap, markdown, pageStarts } = o as Record<string, unknown>;
  if (!Number.isSafeInteger(chunkSize) || (chunkSize as number) < MIN_CHUNK_SIZE || (chunkSize as number) > MAX_CHUNK_SIZE) {
    throw new GroundkitError(
      "INVALID_CONFIG",
      `chunkSize must be an integer from ${MIN_CHUNK_SIZE} to ${MAX_CHUNK_SIZE} code points (got ${String(chunkSize)}).`,
      { option: "chunkSize", value: chunkSize },
    );
  }
  const size = chunkSize as number;
  if (!Number.isSafeInteger(chunkOverlap) || (chunkOverlap as number) < 0 || (chunkOverlap as number) * 2 >= size) {
    throw new GroundkitError(
      "INVALID_CONFIG",
      `chunkOverlap must be an integer from 0 to less than half of chunkSize (${size}) (got ${String(chunkOverlap)}).`,
      { option: "chunkOverlap", value: chunkOverlap },
    );
  }
  if (typeof markdown !== "boolean") {
    throw new GroundkitError("INVALID_CONFIG", `markdown must be true or false (got ${String(markdown)}).`, {
      option: "markdown",
      value: markdown,
    });
  }
  if (pageStarts !== undefined) {
    const ok =
      Array.isArray(pageStarts) &&
      pageStarts.length > 0 &&
      pageStarts[0] === 0 &&
      pageStarts.every((v, i) => Number.isSafeInteger(v) && (i === 0 || v >= (pageStarts[i - 1] as number)));
    if (!ok) {
      throw new GroundkitError(
        "INVALID_ARGUMENT",
        "pageStarts must be a non-empty, non-decreasing list of integer code-point offsets starting with 0.",
        { option: "pageStarts" },
      );
    }
  }
}

// Break levels, most preferred first. NONE marks a position where no chunk may start.
const HEADING = 0;
const PARAGRAPH = 1;
const LINE = 2;
const SENTENCE = 3;
const WORD = 4;
const HARD = 5;
const NONE = 255;

/**
 * Cut `content` (already normalized: LF newlines, no BOM) into chunks.
 * Whitespace-only content gives `[]`; content whose trimmed length fits in
 * `chunkSize` gives one chunk. Every chunk is trimmed, at most `chunkSize`
 * code points long, and together the chunks cover every non-whitespace
 * code point.
 *
 * @example
 *   chunkText("# Install\n\nRun it.", { chunkSize: 1200, chunkOverlap: 150, markdown: true })
 *   // [{ start: 0, end: 18, startLine: 1, endLine: 3, text: "# Install\n\nRun it.", headingPath: ["Install"] }]
 */
export function chunkText(content: string, options: ChunkerOptions): ChunkSpan[] {
  validateChunkerOptions(options);
  const cpt = new CodePointText(content);
  const pageStarts = options.pageStarts;
  if (pageStarts && (pageStarts[pageStarts.length - 1] as number) > cpt.length) {
    throw new GroundkitError("INVALID_ARGUMENT", "pageStarts points past the end of the content.", {
      option: "pageStarts",
      contentLength: cpt.length,
    });
  }
  const md = options.markdown ? scanMarkdownStructure(content, options.codeBlocks?.map((b) => ({ start: cpt.toUtf16(b.start), end: cpt.toUtf16(b.end) }))) : null;
  const breaks = classifyBreaks(content, md, options.chunkSize);
  const spans = cutSpans(content, cpt, breaks, options.chunkSize, options.chunkOverlap);
  const headingParents = md ? buildHeadingParents(md) : null;

  return spans.map(([s, e]): ChunkSpan => {
    const start = cpt.toCodePoint(s);
    const end = cpt.toCodePoint(e);
    const { startLine, endLine } = cpt.lineRange(start, end);
    const chunk: ChunkSpan = {
      start,
      end,
      startLine,
      endLine,
      text: content.slice(s, e),
      headingPath: md && headingParents ? headingPathAt(md, headingParents, s) : [],
    };
    const pages = pageStarts ? pageRange(pageStarts, start, end) : undefined;
    if (pages) {
      chunk.pageStart = pages.pageStart;
      chunk.pageEnd = pages.pageEnd;
    }
    return chunk;
  });
}

/**
 * The greedy cutting loop over UTF-16 indexes. Returns trimmed [start, end)
 * pairs. Progress is strict: every chunk ends past the previous one and
 * starts after the previous one's start.
 */
function cutSpans(
  text: string,
  cpt: CodePointText,
  breaks: number[][],
  size: number,
  overlap: number,
): Array<[number, number]> {
  const n = text.length;
  const spans: Array<[number, number]> = [];
  let p = skipWs(text, 0);
  if (p >= n) return spans;
  const docEnd = trimEnd(text, n, p);
  const docEndCp = cpt.toCodePoint(docEnd);
  // Breaks at or before `lower` would not end a chunk past the previous one.
  let lower = p;

  for (;;) {
    const pCp = cpt.toCodePoint(p);
    if (docEndCp - pCp <= size) {
      spans.push([p, docEnd]);
      return spans;
    }
    const limit = cpt.toUtf16(pCp + size);
    // A break at the end of a whitespace run that straddles the limit still fits once trimmed.
    const bound = skipWs(text, limit);
    let cut = -1;
    let level = HARD;
    for (let l = HEADING; l < HARD; l++) {
      const arr = breaks[l] as number[];
      const k = lastAtMost(arr, bound);
      if (k >= 0 && (arr[k] as number) > lower) {
        cut = arr[k] as number;
        level = l;
        break;
      }
    }
    if (cut < 0) cut = hardCut(text, limit, lower);
    const end = trimEnd(text, cut, p);
    spans.push([p, end]);
    const next = skipWs(text, cut);
    if (next >= n) return spans;
    p = level >= LINE && overlap > 0 ? overlapStart(text, cpt, breaks, p, end, next, level, size, overlap) : next;
    lower = next;
  }
}

/**
 * Where the chunk after a mid-block cut starts: the earliest line, sentence or
 * word start within `overlap` code points before the previous chunk's end (for
 * a hard cut, any code point there). Falls back to `next` (no overlap) when
 * there is none, or when starting earlier would leave no room to move past
 * the previous chunk.
 */
function overlapStart(
  text: string,
  cpt: CodePointText,
  breaks: number[][],
  prevStart: number,
  prevEnd: number,
  next: number,
  level: number,
  size: number,
  overlap: number,
): number {
  const endCp = cpt.toCodePoint(prevEnd);
  const loCp = Math.max(endCp - overlap, cpt.toCodePoint(prevStart) + 1);
  if (loCp >= endCp) return next;
  const lo = cpt.toUtf16(loCp);
  let q = -1;
  for (const l of [LINE, SENTENCE, WORD]) {
    const arr = breaks[l] as number[];
    const k = firstAtLeast(arr, lo);
    if (k < arr.length && (arr[k] as number) < prevEnd) {
      q = arr[k] as number;
      break;
    }
  }
  if (q < 0 && level === HARD) {
    q = skipWs(text, graphemeForward(text, lo, prevEnd));
    if (q >= prevEnd) q = -1;
  }
  if (q < 0) return next;
  // The next window (q, q + size] must reach at least one code point past `next`.
  if (cpt.toCodePoint(q) + size < cpt.toCodePoint(next) + 1) return next;
  return q;
}

/**
 * Assign every UTF-16 position its break level and return, per level, the
 * sorted positions. A break position is always the first code unit of a
 * non-whitespace code point, so cutting there never splits a surrogate pair.
 */
function classifyBreaks(text: string, md: MarkdownStructure | null, size: number): number[][] {
  const n = text.length;
  const levels = new Uint8Array(n + 1).fill(NONE);

  // Whitespace runs: the position after the run is a paragraph, line, sentence or word break.
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isWs(c)) {
      const a = i;
      let newlines = 0;
      while (i < n && isWs(text.charCodeAt(i))) {
        if (text.charCodeAt(i) === 0x0a) newlines++;
        i++;
      }
      if (a > 0 && i < n) {
        levels[i] = newlines >= 2 ? PARAGRAPH : newlines === 1 ? LINE : endsSentence(text, a) ? SENTENCE : WORD;
      }
      continue;
    }
    // CJK full stops end a sentence without a following space.
    if (isUnspacedTerminator(c)) {
      let j = i + 1;
      while (j < n && j - i <= 4 && isCloser(text.charCodeAt(j))) j++;
      if (j < n && !isWs(text.charCodeAt(j)) && SENTENCE < (levels[j] as number)) levels[j] = SENTENCE;
    }
    i++;
  }

  if (md) {
    for (const f of md.fences) {
      // Blank lines inside code are not paragraph breaks; the fence's edges are.
      for (let k = f.start + 1; k <= f.end && k < n; k++) if (levels[k] === PARAGRAPH) levels[k] = LINE;
      if (f.start > 0) levels[f.start] = PARAGRAPH;
      const after = skipWs(text, f.end);
      if (after < n && PARAGRAPH < (levels[after] as number)) levels[after] = PARAGRAPH;
    }
    // A run of headings separated only by blank lines opens one section: break before the
    // run, and nowhere from there to the first character of the content that follows, so a
    // heading always leads its content. A run too long to share a chunk with its content
    // (a table of contents made of headings) may break between its headings, but never
    // inside a heading line nor between the last heading and the content.
    const hs = md.headings;
    let h = 0;
    while (h < hs.length) {
      const firstIndex = h;
      const first = hs[h] as MarkdownHeading;
      let last = first;
      let contentStart = skipWs(text, last.lineEnd);
      while (h + 1 < hs.length && (hs[h + 1] as MarkdownHeading).start === contentStart) {
        h++;
        last = hs[h] as MarkdownHeading;
        contentStart = skipWs(text, last.lineEnd);
      }
      levels[first.start] = HEADING;
      if (contentStart - first.start <= (3 * size) / 4) {
        levels.fill(NONE, first.start + 1, contentStart + 1);
      } else {
        for (let k = firstIndex; k < h; k++) {
          const inner = hs[k] as MarkdownHeading;
          levels.fill(NONE, inner.start + 1, inner.lineEnd + 1);
        }
        levels.fill(NONE, last.start + 1, contentStart + 1);
      }
      h++;
    }
  }

  const out: number[][] = [[], [], [], [], []];
  for (let k = 1; k < n; k++) {
    const l = levels[k] as number;
    if (l !== NONE) (out[l] as number[]).push(k);
  }
  return out;
}

/**
 * For each heading, the index of its parent heading (the nearest earlier one of a
 * lower level), or -1. Paths are then walked on demand, so a file of millions of
 * headings costs one Int32Array rather than one array per heading.
 */
function buildHeadingParents(md: MarkdownStructure): Int32Array {
  const hs = md.headings;
  const parents = new Int32Array(hs.length);
  const stack: number[] = [];
  for (let k = 0; k < hs.length; k++) {
    const level = (hs[k] as MarkdownHeading).level;
    while (stack.length > 0 && (hs[stack[stack.length - 1] as number] as MarkdownHeading).level >= level) stack.pop();
    parents[k] = stack.length > 0 ? (stack[stack.length - 1] as number) : -1;
    stack.push(k);
  }
  return parents;
}

/** Heading path (outermost first) of the section containing UTF-16 position `u`; empty heading texts are left out. */
function headingPathAt(md: MarkdownStructure, parents: Int32Array, u: number): string[] {
  const hs = md.headings;
  let lo = 0;
  let hi = hs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((hs[mid] as MarkdownHeading).start <= u) lo = mid + 1;
    else hi = mid;
  }
  const path: string[] = [];
  for (let k = lo - 1; k >= 0; k = parents[k] as number) {
    const text = (hs[k] as MarkdownHeading).text;
    if (text !== "") path.push(text);
  }
  return path.reverse();
}

/**
 * A hard cut at `limit`, moved back (a little) so it does not separate a base
 * character from its combining marks, a ZWJ sequence or an emoji modifier.
 * Always returns a position > `lower` on a code-point boundary.
 */
function hardCut(text: string, limit: number, lower: number): number {
  let h = limit;
  for (let steps = 0; steps < 32 && h > lower + 1 && clingsToPrevious(text, h); steps++) h = prevCodePoint(text, h);
  return h > lower && !clingsToPrevious(text, h) ? h : limit;
}

/** The first position at or after `from` (before `end`) that does not cling to the code point before it. */
function graphemeForward(text: string, from: number, end: number): number {
  let h = from;
  for (let steps = 0; steps < 32 && h < end && clingsToPrevious(text, h); steps++) h = nextCodePoint(text, h);
  return h < end ? h : from;
}

const MARK = /^\p{M}/u;

/** True when cutting before position `u` would split a user-perceived character. */
function clingsToPrevious(text: string, u: number): boolean {
  if (u <= 0 || u >= text.length) return false;
  if (text.charCodeAt(u - 1) === 0x200d) return true;
  const c = text.charCodeAt(u);
  // Fast path: ASCII and the common BMP ranges below the combining marks never cling.
  if (c < 0x0300) return false;
  const cp = text.codePointAt(u) as number;
  // ZWJ and the emoji skin-tone modifiers attach to what precedes them.
  if (cp === 0x200d || (cp >= 0x1f3fb && cp <= 0x1f3ff)) return true;
  return MARK.test(String.fromCodePoint(cp));
}

function prevCodePoint(text: string, u: number): number {
  const lo = text.charCodeAt(u - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && u >= 2) {
    const hi = text.charCodeAt(u - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return u - 2;
  }
  return u - 1;
}

function nextCodePoint(text: string, u: number): number {
  const hi = text.charCodeAt(u);
  if (hi >= 0xd800 && hi <= 0xdbff && u + 1 < text.length) {
    const lo = text.charCodeAt(u + 1);
    if (lo >= 0xdc00 && lo <= 0xdfff) return u + 2;
  }
  return u + 1;
}

/** Whitespace exactly as JavaScript's `\s` (and `String.prototype.trim`) define it; all of it is BMP. */
function isWs(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function skipWs(text: string, u: number): number {
  while (u < text.length && isWs(text.charCodeAt(u))) u++;
  return u;
}

function trimEnd(text: string, u: number, min: number): number {
  while (u > min && isWs(text.charCodeAt(u - 1))) u--;
  return u;
}

/** Punctuation that ends a sentence when followed by whitespace. */
function isTerminator(c: number): boolean {
  return (
    c === 0x2e || // .
    c === 0x21 || // !
    c === 0x3f || // ?
    c === 0x2026 || // …
    c === 0x0964 || // । (Devanagari danda)
    c === 0x061f || // ؟ (Arabic question mark)
    c === 0x06d4 || // ۔ (Arabic full stop)
    isUnspacedTerminator(c)
  );
}

/** CJK sentence-ending punctuation, which is not followed by a space. */
function isUnspacedTerminator(c: number): boolean {
  return c === 0x3002 || c === 0xff01 || c === 0xff1f || c === 0xff61; // 。！？｡
}

/** Closing quotes and brackets that may follow a sentence's final punctuation. */
function isCloser(c: number): boolean {
  return (
    c === 0x22 || // "
    c === 0x27 || // '
    c === 0x29 || // )
    c === 0x5d || // ]
    c === 0x7d || // }
    c === 0x2019 || // ’
    c === 0x201d || // ”
    c === 0xbb || // »
    c === 0x300d || // 」
    c === 0x300f || // 』
    c === 0x3011 || // 】
    c === 0xff09 || // ）
    c === 0x3009 || // 〉
    c === 0x300b // 》
  );
}

/** True when the text just before whitespace starting at `a` ends a sentence. */
function endsSentence(text: string, a: number): boolean {
  let k = a - 1;
  while (k > 0 && a - k <= 4 && isCloser(text.charCodeAt(k))) k--;
  return isTerminator(text.charCodeAt(k));
}
