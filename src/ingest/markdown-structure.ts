/**
 * The block structure of a Markdown document that the chunker cares about:
 * ATX headings, fenced code blocks and YAML front matter. This is a line
 * scanner, not a full CommonMark parser: it recognizes top-level constructs
 * (at most three spaces of indentation), which is what decides where a chunk
 * may start. Positions are UTF-16 indexes into the content.
 */

/** An ATX heading (`#`..`######`) outside fenced code and front matter. */
export interface MarkdownHeading {
  /** UTF-16 index of the heading's first `#`. */
  start: number;
  /** UTF-16 index just past the heading line (the position of its "\n", or the content length). */
  lineEnd: number;
  /** 1 to 6. */
  level: number;
  /** Heading text without the `#` marks, the optional closing sequence and surrounding blanks. */
  text: string;
}

/** A fenced code block (``` or ~~~), from its opening fence to its closing fence. */
export interface MarkdownFence {
  /** UTF-16 index of the opening fence's first backtick or tilde. */
  start: number;
  /** UTF-16 index just past the closing fence line, or the content length when the fence is never closed. */
  end: number;
}

/** What `scanMarkdownStructure` finds, each list in document order. */
export interface MarkdownStructure {
  headings: MarkdownHeading[];
  fences: MarkdownFence[];
  /** UTF-16 index just past the front matter's closing line, or 0 when there is none. */
  frontMatterEnd: number;
}

const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;
const BACKTICK = 0x60;
const TILDE = 0x7e;

/**
 * Find the headings, fenced code blocks and front matter of a Markdown document
 * (LF newlines). Runs in one pass over the lines. `codeBlocks` are code blocks
 * known without fences (an extractor's HTML `<pre>`, UTF-16 ranges in order):
 * their lines are code, never headings or fences, and they are reported among
 * the fences.
 *
 * @example
 *   scanMarkdownStructure("# Install\n\n```\n# not a heading\n```\n").headings
 *   // [{ start: 0, lineEnd: 9, level: 1, text: "Install" }]
 */
export function scanMarkdownStructure(content: string, codeBlocks: readonly MarkdownFence[] = []): MarkdownStructure {
  const n = content.length;
  const headings: MarkdownHeading[] = [];
  const fences: MarkdownFence[] = [];
  const frontMatterEnd = findFrontMatterEnd(content);

  let open: { start: number; char: number; length: number } | null = null;
  let i = frontMatterEnd;
  let known = 0;
  while (i < n) {
    let j = content.indexOf("\n", i);
    if (j < 0) j = n;
    while (known < codeBlocks.length && codeBlocks[known]!.end <= i) known++;
    const block = codeBlocks[known];
    if (!open && block && block.start <= i) {
      // A known code block: jump past its last line.
      fences.push(block);
      known++;
      i = Math.max(j, block.end) + 1;
      continue;
    }
    // Up to three spaces of indentation; more makes an indented code block (or list continuation).
    let k = i;
    while (k < j && k - i < 3 && content.charCodeAt(k) === SPACE) k++;
    const c = content.charCodeAt(k);
    if (open) {
      if (c === open.char && isClosingFence(content, k, j, open.char, open.length)) {
        fences.push({ start: open.start, end: j });
        open = null;
      }
    } else if (c === BACKTICK || c === TILDE) {
      const run = runLength(content, k, j, c);
      // A backtick fence's info string may not contain backticks (that would be inline code).
      if (run >= 3 && (c === TILDE || !lineHas(content, k + run, j, BACKTICK))) {
        open = { start: k, char: c, length: run };
      }
    } else if (c === HASH) {
      const heading = parseAtxHeading(content, k, j);
      if (heading) headings.push(heading);
    }
    i = j + 1;
  }
  if (open) fences.push({ start: open.start, end: n });
  return { headings, fences, frontMatterEnd };
}

/** Front matter: a first line `---`, closed by a later line `---` or `...`. */
function findFrontMatterEnd(content: string): number {
  if (!content.startsWith("---\n")) return 0;
  let i = 4;
  while (i < content.length) {
    let j = content.indexOf("\n", i);
    if (j < 0) j = content.length;
    const line = content.slice(i, j).trimEnd();
    if (line === "---" || line === "...") return j;
    i = j + 1;
  }
  return 0; // never closed: not front matter, just text
}

function runLength(s: string, from: number, to: number, ch: number): number {
  let k = from;
  while (k < to && s.charCodeAt(k) === ch) k++;
  return k - from;
}

function lineHas(s: string, from: number, to: number, ch: number): boolean {
  for (let m = from; m < to; m++) if (s.charCodeAt(m) === ch) return true;
  return false;
}

function isClosingFence(s: string, k: number, lineEnd: number, ch: number, minLength: number): boolean {
  const run = runLength(s, k, lineEnd, ch);
  if (run < minLength) return false;
  for (let m = k + run; m < lineEnd; m++) {
    const c = s.charCodeAt(m);
    if (c !== SPACE && c !== TAB) return false;
  }
  return true;
}

function parseAtxHeading(s: string, k: number, lineEnd: number): MarkdownHeading | null {
  const level = runLength(s, k, lineEnd, HASH);
  if (level < 1 || level > 6) return null;
  const after = k + level;
  // `#tag` and `#5` are not headings: the marks must be followed by a blank or the line end.
  if (after < lineEnd) {
    const c = s.charCodeAt(after);
    if (c !== SPACE && c !== TAB) return null;
  }
  let text = s.slice(after, lineEnd).trim();
  // An optional closing sequence of #'s, preceded by a blank (or making up the whole text).
  const closing = /(?:^|[ \t])#+$/.exec(text);
  if (closing) text = text.slice(0, closing.index).trim();
  return { start: k, lineEnd, level, text };
}
