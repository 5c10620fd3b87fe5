/**
 * A block-aware, deterministic HTML-to-text serializer on top of htmlparser2's
 * streaming parser (no DOM is built).
 *
 * The output is plain text with just enough Markdown for a Markdown-aware
 * chunker: headings become ATX headings (`## Title`), list items `- item`,
 * `<pre>` blocks fenced code blocks. Rules, all fixed:
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
 * - `<pre>` text is kept verbatim (line breaks, blank lines, indentation) inside a
 *   code fence, minus the newline right after `<pre>` (HTML ignores it), trailing
 *   whitespace on each line, and leading/trailing blank lines. The fence keeps a
 *   line like "# comment" in code from reading as a heading.
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
}

/** What {@link serializeHtml} returns. */
export interface SerializedHtml {
  /** The serialized text: LF newlines, no trailing spaces on lines, trimmed. */
  text: string;
  /** The first `<title>` outside svg/math, whitespace-collapsed; undefined when absent or empty. */
  title: string | undefined;
}

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
  const out = new TextBuilder(maxOutput, options.label);
  const stack: string[] = [];
  /** Per open `<tr>`: cells seen so far. */
  const rows: number[] = [];
  let dropDepth = 0;
  let preDepth = 0;
  let preText = "";
  let titleDepth = 0;
  let titleText: string | undefined;
  let titleDone = false;

  const open = (name: string): void => {
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
      else if (name === "br") preText += "\n";
      return;
    }
    const heading = HEADING.exec(name);
    if (heading) {
      out.openHeading(Number(heading[1]));
    } else if (name === "pre") {
      preDepth = 1;
      preText = "";
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
      if (name === "pre" && --preDepth === 0) out.preformatted(preText);
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
        } else if (preDepth > 0) {
          preText += data;
        } else {
          out.text(data);
        }
      },
    },
    // Pinned explicitly (they are also the defaults) so a default change can't alter output silently.
    { xmlMode: false, decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  // Anything still open at the end (e.g. an unterminated <pre>) was closed by parser.end().
  const title = titleText?.replace(CONTROL_CHARS, "").split(COLLAPSIBLE).join(" ").trim();
  const text = out.finish();
  if (maxOutput !== Number.POSITIVE_INFINITY) checkOutputLength(codePointLength(text), maxOutput, options.label);
  return { text, title: title ? title : undefined };
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

  constructor(
    private readonly maxOutput: number,
    private readonly label: string | undefined,
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

  /** Inline text from the parser: whitespace runs collapse into one pending space. */
  text(data: string): void {
    const words = data.replace(CONTROL_CHARS, "").split(COLLAPSIBLE);
    for (let i = 0; i < words.length; i++) {
      if (i > 0) this.pendingSpace = true;
      const word = words[i]!;
      if (word) this.word(word);
    }
  }

  /** The raw text of a `<pre>` element, emitted as a fenced block. */
  preformatted(raw: string): void {
    let body = raw.replace(/\r\n?/g, "\n").replace(CONTROL_CHARS, "");
    if (body.startsWith("\n")) body = body.slice(1);
    const lines = body.split("\n").map((line) => line.replace(/\s+$/, ""));
    while (lines.length > 0 && lines[0] === "") lines.shift();
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    if (lines.length === 0) return;
    const content = lines.join("\n");
    const longestRun = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
    const fence = "`".repeat(Math.max(3, longestRun + 1));
    this.block(2);
    this.settleBreak();
    this.write(`${fence}\n${content}\n${fence}`);
    this.hasContent = true;
    this.block(2);
  }

  finish(): string {
    // Only a nested list item's indentation can lead; a document does not start indented.
    return this.parts.join("").trim();
  }

  private word(word: string): void {
    this.settleBreak();
    const atLineStart = !this.hasContent || this.trailingNewlines > 0;
    if (atLineStart) {
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
