/**
 * A block-aware, deterministic HTML-to-text serializer on top of htmlparser2's
 * streaming parser (no DOM is built).
 *
 * The output is plain text with just enough Markdown for a Markdown-aware
 * chunker: headings become ATX headings (`## Title`), list items `- item`.
 * `<pre>` blocks are their own lines, verbatim, their ranges returned in
 * `codeBlocks` so the chunker keeps a `# comment` in code from reading as a
 * heading without a Markdown fence in the text (`fencedCode: true`, the form
 * EPUB chapters keep, wraps them in fences instead). Rules, all fixed:
 * - Paragraph-like blocks (p, headings, lists, tables, blockquote, pre, section…)
 *   are separated by one blank line; line-like blocks (div, li, tr, dt, dd…)
 *   and `<br>` start a new line. Never more than one blank line in a row outside `<pre>`.
 * - List items become "- item"; a nested list's items are indented two spaces per level.
 * - Table cells in a row are joined with " | ".
 * - Text of script, style, noscript, template, svg, math, iframe, noembed,
 *   noframes and rp is dropped; `<title>` is returned separately, never inlined.
 *   `<head>` is a transparent container: everything legitimately inside it is one of
 *   the dropped elements, and treating it as transparent keeps body text when a
 *   sloppy page never closes `<head>` (browsers move such text into the body too).
 * - Entities are decoded by the parser. Outside `<pre>`, every run of HTML
 *   whitespace (space, tab, LF, FF, CR) and U+00A0 (no-break space, mostly used for
 *   layout) collapses to one space; lines carry no leading or trailing spaces
 *   except list indentation.
 * - `<pre>` text is kept verbatim (line breaks, blank lines, indentation), minus
 *   the newline right after `<pre>` (HTML ignores it), trailing whitespace on
 *   each line, and leading/trailing blank lines.
 * - A permalink anchor is dropped: an `<a href="#…">` whose text is only
 *   `#`, `§`, `¶`, `🔗` or `⚓` (PostgreSQL's `id_link`, Sphinx's `headerlink`,
 *   the `§` of many generators): it is navigation, and left in, every heading
 *   of such a page ends in a stray mark. (Not with `fencedCode`.)
 * - Other C0 control characters are removed.
 *
 * Bounds (each a refusal, `EXTRACTION_LIMIT`, never a different text):
 * - At most {@link HTML_MAX_NESTING_DEPTH} elements open at once. htmlparser2
 *   keeps its open elements in an array it grows with `unshift`, which copies
 *   the whole array once it is too large for V8 to shift in place (~16k
 *   entries), and scans it on every end tag: 400k unclosed `<div>`s took
 *   minutes. Capped, the parser's cost per tag is bounded and the document's
 *   cost is linear in its size.
 * - At most `maxOutputCodePoints` of text (checked as it is written, so a
 *   document that amplifies, such as deep lists whose items carry their
 *   indentation, stops early).
 */
import { Parser } from "htmlparser2";
import { lastAtMost } from "../core/sorted-search.js";
import type { SourceLineMap } from "../core/source-lines.js";
import { codePointLength } from "../core/text.js";
import { checkOutputLength, extractionLimit } from "./limits.js";

/**
 * The most elements open at once. Browsers stop nesting well before this (Blink
 * makes elements past depth 512 siblings instead); real pages stay far below.
 */
export const HTML_MAX_NESTING_DEPTH = 1024;

/** Bounds for {@link serializeHtml}. */
export interface SerializeHtmlOptions {
  /** Refuse with `EXTRACTION_LIMIT` once the text is longer than this many code points. */
  maxOutputCodePoints?: number | undefined;
  /** Names the document in refusals. */
  label?: string | undefined;
  /**
   * The earlier form, kept by EPUB chapters (whose extractor identity did not
   * change): `<pre>` blocks in Markdown code fences, permalink anchors kept.
   */
  fencedCode?: boolean | undefined;
}

/** A `<pre>` block's range in the text, in code points: `[start, end)`. */
export interface CodeBlock {
  start: number;
  end: number;
}

/** What {@link serializeHtml} returns. */
export interface SerializedHtml {
  /** The serialized text: LF newlines, no trailing spaces on lines, trimmed. */
  text: string;
  /** The first `<title>` outside svg/math, whitespace-collapsed; undefined when absent or empty. */
  title: string | undefined;
  /**
   * The line of `html` each run of `text` came from: a word's own line; a separator
   * (space, line break) the line of the text before it; a list bullet, heading
   * marker or code fence the line of the text it introduces.
   */
  sourceLines: SourceLineMap;
  /** The `<pre>` blocks, in order (none with `fencedCode`: the fences mark them). */
  codeBlocks: CodeBlock[];
}

/** The whole text of a permalink anchor (see the rules above). */
const PERMALINK_TEXT = /^(?:\s|[#§¶⚓]|🔗|\ufe0f)*$/u;

/** Inline markup a permalink mark may sit in (`<a href="#x"><span>¶</span></a>`). */
const INLINE = new Set(["span", "code", "i", "b", "em", "strong", "small", "sup"]);

/** Elements whose whole content is dropped. */
const DROPPED = new Set(["script", "style", "noscript", "template", "svg", "math", "iframe", "noembed", "noframes", "rp"]);

/** Blocks separated from their surroundings by a blank line. */
const PARAGRAPH_BLOCKS = new Set([
  "p", "blockquote", "table", "dl", "hr", "figure", "section", "article", "header", "footer",
  "main", "nav", "aside", "address", "details", "fieldset", "form", "hgroup", "center",
]);

/** Blocks that start (and end) a line. */
const LINE_BLOCKS = new Set([
  "html", "body", "div", "tr", "dt", "dd", "figcaption", "caption", "summary", "legend",
  "option", "optgroup", "thead", "tbody", "tfoot", "dialog", "search", "li",
]);

/**
 * The most that finish()'s trim removes: a first list item's indentation (two
 * spaces per list level, lists being elements) and the trailing line ends (at
 * most a blank line's worth).
 */
const TRIM_SLACK = 2 * HTML_MAX_NESTING_DEPTH + 2;

const LISTS = new Set(["ul", "ol", "menu"]);
const CELLS = new Set(["td", "th"]);
const HEADING = /^h([1-6])$/;

const COLLAPSIBLE = /[ \t\n\f\r\u00a0]+/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g;

/**
 * Serialize an HTML document (already decoded to a string) to block-aware text.
 *
 * @example
 *   serializeHtml("<h2>Install</h2><p>Run <code>npm i</code>.</p><ul><li>fast</li></ul>").text
 *   // "## Install\n\nRun npm i.\n\n- fast"
 * @throws GroundkitError `EXTRACTION_LIMIT` past the nesting or output bound.
 */
export function serializeHtml(html: string, options: SerializeHtmlOptions = {}): SerializedHtml {
  const maxOutput = options.maxOutputCodePoints ?? Number.POSITIVE_INFINITY;
  const out = new TextBuilder(maxOutput, options.label, options.fencedCode === true);
  const lineOf = sourceLineIndex(html);
  const stack: string[] = [];
  /** Per open `<tr>`: cells seen so far. */
  const rows: number[] = [];
  let dropDepth = 0;
  let preDepth = 0;
  let preText = "";
  /** Where each piece of preText came from: its offset in preText and its origin in `html`. */
  let preOrigins: Origin[] = [];
  let titleDepth = 0;
  let titleText: string | undefined;
  let titleDone = false;
  /** An open `<a href="#…">` whose text is held back until it shows whether it is only a permalink mark. */
  let anchor: { depth: number; pieces: Array<{ data: string; line: number; verbatim: boolean }> } | undefined;
  const releaseAnchor = (): void => {
    const held = anchor;
    anchor = undefined;
    for (const p of held?.pieces ?? []) out.text(p.data, p.line, p.verbatim);
  };

  const open = (name: string): void => {
    // An element inside the anchor other than inline markup: not a bare mark; write what was held.
    if (anchor && !INLINE.has(name)) releaseAnchor();
    stack.push(name);
    if (stack.length > HTML_MAX_NESTING_DEPTH) {
      throw extractionLimit("nesting", `stopped: the HTML nests more than ${HTML_MAX_NESTING_DEPTH} elements inside each other`, options.label, {
        maxDepth: HTML_MAX_NESTING_DEPTH,
      });
    }
    if (DROPPED.has(name)) {
      dropDepth++;
      return;
    }
    if (dropDepth > 0) return;
    if (name === "title") {
      titleDepth++;
      if (!titleDone) titleText = "";
      return;
    }
    if (preDepth > 0) {
      if (name === "pre") preDepth++;
      else if (name === "br") {
        preOrigins.push({ at: preText.length, from: parser.endIndex, verbatim: false });
        preText += "\n";
      }
      return;
    }
    const heading = HEADING.exec(name);
    if (heading) {
      out.openHeading(Number(heading[1]));
    } else if (name === "pre") {
      preDepth = 1;
      preText = "";
      preOrigins = [];
    } else if (name === "br") {
      out.lineBreak();
    } else if (LISTS.has(name)) {
      out.openList();
    } else if (CELLS.has(name)) {
      const row = rows.length - 1;
      if (row >= 0) {
        rows[row]!++;
        if (rows[row]! > 1) out.cellSeparator();
      } else {
        out.space();
      }
    } else if (PARAGRAPH_BLOCKS.has(name)) {
      out.block(2);
    } else if (LINE_BLOCKS.has(name)) {
      out.block(1);
    }
    if (name === "tr") rows.push(0);
    if (name === "li") out.openItem();
  };

  const close = (name: string): void => {
    if (anchor && stack.length < anchor.depth) {
      if (PERMALINK_TEXT.test(anchor.pieces.map((p) => p.data).join(""))) anchor = undefined;
      else releaseAnchor();
    }
    if (DROPPED.has(name)) {
      dropDepth--;
      return;
    }
    if (dropDepth > 0) return;
    if (name === "title") {
      titleDepth--;
      if (titleDepth === 0 && titleText !== undefined) titleDone = true;
      return;
    }
    if (preDepth > 0) {
      if (name === "pre" && --preDepth === 0) out.preformatted(preText, (i) => lineOf(originIn(preOrigins, i)));
      return;
    }
    if (name === "li") out.closeItem();
    if (HEADING.test(name)) out.closeHeading();
    else if (LISTS.has(name)) out.closeList();
    else if (CELLS.has(name)) out.space();
    else if (PARAGRAPH_BLOCKS.has(name)) out.block(2);
    else if (LINE_BLOCKS.has(name)) out.block(1);
    if (name === "tr") rows.pop();
  };

  const parser = new Parser(
    {
      onopentagname: open,
      onopentag(name, attribs) {
        if (name === "a" && !options.fencedCode && dropDepth === 0 && preDepth === 0 && titleDepth === 0 && attribs.href?.startsWith("#")) {
          anchor = { depth: stack.length, pieces: [] };
        }
      },
      onclosetag(name) {
        // htmlparser2 closes every element it opened (implied closes included); the guard
        // keeps our stack sane should a close ever arrive for something not open.
        const at = stack.lastIndexOf(name);
        if (at < 0) return;
        while (stack.length > at) close(stack.pop()!);
      },
      ontext(data) {
        if (dropDepth > 0) return;
        if (titleDepth > 0) {
          if (!titleDone) titleText += data;
          return;
        }
        const origin = textOrigin(html, data, parser.endIndex);
        if (preDepth > 0) {
          preOrigins.push({ at: preText.length, ...origin });
          preText += data;
        } else if (anchor) {
          anchor.pieces.push({ data, line: lineOf(origin.from), verbatim: origin.verbatim });
        } else {
          out.text(data, lineOf(origin.from), origin.verbatim);
        }
      },
    },
    // Pinned explicitly (they are also the defaults) so a default change can't alter output silently.
    { xmlMode: false, decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  // Anything still open at the end (e.g. an unterminated <pre>) was closed by parser.end().
  const title = titleText?.replace(CONTROL_CHARS, "").split(COLLAPSIBLE).join(" ").trim();
  releaseAnchor();
  const { text, sourceLines, codeBlocks } = out.finish();
  if (maxOutput !== Number.POSITIVE_INFINITY) checkOutputLength(codePointLength(text), maxOutput, options.label);
  return { text, title: title ? title : undefined, sourceLines, codeBlocks };
}

/** Where a piece of text came from in the HTML. */
interface Origin {
  /** Offset of the piece in the text it was appended to. */
  at: number;
  /** UTF-16 index in the HTML of the piece's first character (verbatim), or of the entity or tag that produced it. */
  from: number;
  /** Whether the piece is a verbatim slice of the HTML (else a decoded entity or a `<br>`, all on one line). */
  verbatim: boolean;
}

/**
 * Where text the parser just reported came from. htmlparser2 reports raw text as
 * a slice of the input ending at `endIndex`, and a decoded entity as its own text
 * event (the entity ending at `endIndex`), so the slice test tells them apart.
 */
function textOrigin(html: string, data: string, endIndex: number): Omit<Origin, "at"> {
  const from = endIndex + 1 - data.length;
  if (from >= 0 && html.startsWith(data, from)) return { from, verbatim: true };
  return { from: Math.max(0, endIndex), verbatim: false };
}

/** The HTML index that character `i` of a piecewise-built text came from. */
function originIn(origins: readonly Origin[], i: number): number {
  let lo = 0;
  let hi = origins.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (origins[mid]!.at <= i) lo = mid + 1;
    else hi = mid;
  }
  const piece = origins[lo - 1];
  if (!piece) return 0;
  return piece.verbatim ? piece.from + (i - piece.at) : piece.from;
}

/** A function giving the 1-based line of a UTF-16 index of `html` (LF newlines only). */
function sourceLineIndex(html: string): (index: number) => number {
  const newlines: number[] = [];
  for (let i = html.indexOf("\n"); i >= 0; i = html.indexOf("\n", i + 1)) newlines.push(i);
  // Line = newlines strictly before the index, plus one.
  return (index) => lastAtMost(newlines, index - 1) + 2;
}

/**
 * Accumulates output, deferring separators until real text arrives so that empty
 * elements leave no trace and breaks never pile up.
 */
class TextBuilder {
  private readonly parts: string[] = [];
  /** Code points written so far, which the final trim can shorten by at most {@link TRIM_SLACK}. */
  private written = 0;
  private hasContent = false;
  /** Consecutive "\n" at the end of the output. */
  private trailingNewlines = 0;
  /** Newlines owed before the next text: 1 = new line, 2 = blank line. */
  private pendingBreak = 0;
  private pendingSpace = false;
  private pendingCell = false;
  private headingLevel = 0;
  private listDepth = 0;
  private bulletPending = false;
  /** The source line what is written now came from. */
  private line = 1;
  /** Runs of the output by source line (see SourceLineMap), in written code points. */
  private readonly runStarts: number[] = [];
  private readonly runLines: number[] = [];
  /** `<pre>` blocks in written code points (before finish()'s trim). */
  private readonly codeBlocks: CodeBlock[] = [];

  constructor(
    private readonly maxOutput: number,
    private readonly label: string | undefined,
    private readonly fencedCode: boolean,
  ) {}

  /** A block boundary needing `newlines` line ends (inside a heading, just a space). */
  block(newlines: 1 | 2): void {
    if (this.headingLevel > 0) {
      this.pendingSpace = true;
      return;
    }
    this.pendingBreak = Math.max(this.pendingBreak, newlines);
    this.pendingSpace = false;
    this.pendingCell = false;
  }

  /** `<br>`: a hard line end (a space inside a heading); two in a row make a blank line, never more. */
  lineBreak(): void {
    if (this.headingLevel > 0) {
      this.pendingSpace = true;
      return;
    }
    this.settleBreak();
    if (this.hasContent && this.trailingNewlines < 2) this.write("\n");
    this.pendingSpace = false;
    this.pendingCell = false;
  }

  space(): void {
    this.pendingSpace = true;
  }

  cellSeparator(): void {
    this.pendingCell = true;
  }

  openHeading(level: number): void {
    this.block(2);
    if (this.headingLevel === 0) this.headingLevel = level;
  }

  closeHeading(): void {
    this.headingLevel = 0;
    this.block(2);
  }

  openList(): void {
    this.block(this.listDepth > 0 ? 1 : 2);
    this.listDepth++;
  }

  closeList(): void {
    this.listDepth = Math.max(0, this.listDepth - 1);
    this.block(this.listDepth > 0 ? 1 : 2);
  }

  openItem(): void {
    this.bulletPending = true;
  }

  closeItem(): void {
    this.bulletPending = false;
  }

  /**
   * Inline text from the parser: whitespace runs collapse into one pending space.
   * `data` starts on source line `line`; when it is `verbatim` (a slice of the
   * HTML, not a decoded entity) each newline in it is a newline of the file.
   */
  text(data: string, line: number, verbatim: boolean): void {
    // Split at newlines first (the common case has none): a newline is collapsible whitespace
    // like any other, so the words and the spaces between them are the same either way.
    const segments = data.includes("\n") ? data.split("\n") : [data];
    for (let s = 0; s < segments.length; s++) {
      if (s > 0) this.pendingSpace = true;
      const words = segments[s]!.replace(CONTROL_CHARS, "").split(COLLAPSIBLE);
      for (let i = 0; i < words.length; i++) {
        if (i > 0) this.pendingSpace = true;
        const word = words[i]!;
        if (word) this.word(word, verbatim ? line + s : line);
      }
    }
  }

  /** The raw text of a `<pre>` element, emitted as a block of its own lines; `lineOf(i)` is the source line of `raw`'s index `i`. */
  preformatted(raw: string, lineOf: (i: number) => number): void {
    const lines: Array<{ text: string; line: number }> = [];
    const breaks = /\r\n?|\n/g;
    for (let at = 0; ; ) {
      const m = breaks.exec(raw);
      const end = m ? m.index : raw.length;
      lines.push({ text: raw.slice(at, end).replace(CONTROL_CHARS, "").replace(/\s+$/, ""), line: lineOf(at) });
      if (!m) break;
      at = m.index + m[0].length;
    }
    // HTML ignores the newline right after <pre>; dropping every leading blank line covers it.
    while (lines.length > 0 && lines[0]!.text === "") lines.shift();
    while (lines.length > 0 && lines[lines.length - 1]!.text === "") lines.pop();
    if (lines.length === 0) return;
    this.block(2);
    this.settleBreak();
    if (this.fencedCode) {
      const content = lines.map((l) => l.text).join("\n");
      const longestRun = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
      const fence = "`".repeat(Math.max(3, longestRun + 1));
      this.line = lines[0]!.line;
      this.write(`${fence}\n`);
      for (const { text, line } of lines) {
        this.line = line;
        this.write(`${text}\n`);
      }
      this.write(fence);
    } else {
      const start = this.written;
      lines.forEach(({ text, line }, i) => {
        // A line end belongs to the line before it (see SerializedHtml.sourceLines).
        if (i > 0) this.write("\n");
        this.line = line;
        if (text) this.write(text);
      });
      this.codeBlocks.push({ start, end: this.written });
    }
    this.hasContent = true;
    this.block(2);
  }

  finish(): { text: string; sourceLines: SourceLineMap; codeBlocks: CodeBlock[] } {
    // Only a nested list item's indentation can lead; a document does not start indented.
    const joined = this.parts.join("");
    const text = joined.trim();
    const lead = codePointLength(joined.slice(0, joined.length - joined.trimStart().length));
    const length = codePointLength(text);
    const starts: number[] = [];
    const lines: number[] = [];
    for (let i = 0; i < this.runStarts.length; i++) {
      const start = Math.max(0, this.runStarts[i]! - lead);
      if (start >= length) break;
      // Runs the trim cut to nothing give way to the run that now starts at the same offset.
      if (starts.length > 0 && starts[starts.length - 1] === start) {
        starts.pop();
        lines.pop();
      }
      if (lines.length > 0 && lines[lines.length - 1] === this.runLines[i]) continue;
      starts.push(start);
      lines.push(this.runLines[i]!);
    }
    const codeBlocks = this.codeBlocks.map((b) => ({ start: Math.max(0, b.start - lead), end: Math.min(length, b.end - lead) }));
    return { text, sourceLines: { starts, lines }, codeBlocks };
  }

  private word(word: string, line: number): void {
    // Separators belong to the text before them, a bullet or heading marker to the word after.
    this.settleBreak();
    const atLineStart = !this.hasContent || this.trailingNewlines > 0;
    if (atLineStart) {
      this.line = line;
      let prefix = "";
      if (this.bulletPending) prefix += `${"  ".repeat(Math.max(0, this.listDepth - 1))}- `;
      if (this.headingLevel > 0) prefix += `${"#".repeat(this.headingLevel)} `;
      this.bulletPending = false;
      if (prefix) this.write(prefix);
    } else if (this.pendingCell) {
      this.write(" | ");
    } else if (this.pendingSpace) {
      this.write(" ");
    }
    this.line = line;
    this.pendingSpace = false;
    this.pendingCell = false;
    this.write(word);
    this.hasContent = true;
  }

  /** Emit the newlines owed by `pendingBreak`, merging with those already written. */
  private settleBreak(): void {
    if (this.hasContent) {
      while (this.trailingNewlines < this.pendingBreak) this.write("\n");
    }
    this.pendingBreak = 0;
  }

  private write(s: string): void {
    if (this.runLines[this.runLines.length - 1] !== this.line) {
      this.runStarts.push(this.written);
      this.runLines.push(this.line);
    }
    this.parts.push(s);
    this.written += codePointLength(s);
    // Refuse early only when even the trimmed text must be over the limit; finish()'s caller checks exactly.
    if (this.written - TRIM_SLACK > this.maxOutput) checkOutputLength(this.written - TRIM_SLACK, this.maxOutput, this.label);
    if (s.endsWith("\n")) {
      const trimmed = s.replace(/\n+$/, "");
      this.trailingNewlines = trimmed.length === 0 ? this.trailingNewlines + s.length : s.length - trimmed.length;
    } else {
      this.trailingNewlines = 0;
    }
  }
}
