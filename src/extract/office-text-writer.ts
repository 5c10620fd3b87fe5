/**
 * Writes the text of an office document or e-book, block by block, with the
 * location each run belongs to. The rules are fixed, because verification must
 * reproduce the text exactly (docs/decisions/0022-office-documents.md):
 * - headings become ATX headings (`## Title`), so heading paths and the
 *   Markdown-aware chunker work as for HTML;
 * - blocks are separated by a blank line, except consecutive list items and
 *   consecutive table rows, which are separated by one line break;
 * - list items are `- item`, indented two spaces per nesting level;
 * - table and sheet rows are their non-empty cells joined with ` | `;
 * - inside a block, every run of whitespace collapses to one space, explicit line
 *   breaks stay (a heading or cell becomes one line), lines are trimmed, empty
 *   lines dropped, C0 controls and DEL removed; an empty block writes nothing.
 * A separator belongs to the run of the text before it. The text is checked
 * against the output limit as it grows.
 */
import type { Location, LocationMap } from "../core/locations.js";
import { codePointLength } from "../core/text.js";
import { checkOutputLength } from "./limits.js";

/** The heading of a slide without a title (decks: a heading per slide keeps the chunker splitting there). */
export const UNTITLED_SLIDE = "Untitled slide";

/** How a block joins the block before it. */
export type BlockKind = "paragraph" | "item" | "row";

/** A cell of a table or sheet row, with its own location (a sheet cell). */
export interface RowCell {
  text: string;
  location?: Location | undefined;
}

// C0 controls other than tab and line feed, and DEL: never text.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

// Text already normalized: words separated by single spaces, no other whitespace or control character.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NORMALIZED_LINE = /^[^\s\u0000-\u001f\u007f]+(?: [^\s\u0000-\u001f\u007f]+)*$/;

/** Block text per the rules above: lines collapsed and trimmed, empty lines dropped. */
export function normalizeBlockText(text: string): string {
  // Most cells and many paragraphs are already normalized: skip the split and joins (same result).
  if (NORMALIZED_LINE.test(text)) return text;
  return text
    .replace(CONTROL_CHARS, "")
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line.length > 0)
    .join("\n");
}

function oneLine(text: string): string {
  return normalizeBlockText(text).replace(/\n/g, " ");
}

/** Whether two locations are the same place (compared field by field: a sheet has one per cell). */
function sameLocation(a: Location, b: Location): boolean {
  if ("slide" in a) return "slide" in b && a.slide === b.slide;
  if ("chapter" in a) return "chapter" in b && a.chapter === b.chapter && a.title === b.title;
  if ("headings" in a) return "headings" in b && a.headings.length === b.headings.length && a.headings.every((h, i) => h === b.headings[i]);
  return "sheet" in b && a.sheet === b.sheet && a.row === b.row && a.col === b.col;
}

/** The text and its location map, built block by block. */
export class OfficeTextWriter {
  private readonly pieces: string[] = [];
  private length = 0;
  private readonly starts: number[] = [];
  private readonly locations: Location[] = [];
  private current: Location | undefined;
  private pending: Location | undefined;
  private lastKind: BlockKind | undefined;

  constructor(
    private readonly maxOutputCodePoints: number,
    private readonly label: string | undefined,
  ) {}

  /** The location of the text written from now on (separators before it excepted). */
  locate(location: Location): void {
    this.pending = location;
  }

  /** A heading of `level` (1-6; deeper levels are written as 6). */
  heading(level: number, text: string): void {
    const line = oneLine(text);
    if (!line) return;
    this.writeBlock(`${"#".repeat(Math.min(6, Math.max(1, level)))} ${line}`, "paragraph");
  }

  /** A paragraph, or a list item at nesting `level` (0 = outermost). */
  block(text: string, kind: "paragraph" | "item" = "paragraph", level = 0): void {
    const body = normalizeBlockText(text);
    if (!body) return;
    this.writeBlock(kind === "item" ? `${"  ".repeat(level)}- ${body}` : body, kind);
  }

  /** Text already in this writer's form (the HTML serializer's output): written as one block, unchanged. */
  verbatim(text: string): void {
    if (!text) return;
    this.writeBlock(text, "paragraph");
  }

  /** A table or sheet row: its non-empty cells on one line, each cell in its own location when it has one. */
  row(cells: readonly RowCell[]): void {
    let first = true;
    for (const cell of cells) {
      const text = oneLine(cell.text);
      if (!text) continue;
      if (cell.location) this.pending = cell.location;
      if (first) this.separate("row");
      else this.append(" | ");
      this.applyLocation();
      this.append(text);
      first = false;
    }
    if (!first) this.lastKind = "row";
  }

  /** The finished text and where each run of it belongs. */
  finish(): { text: string; locations: LocationMap } {
    return { text: this.pieces.join(""), locations: { starts: this.starts, locations: this.locations } };
  }

  private writeBlock(text: string, kind: BlockKind): void {
    this.separate(kind);
    this.applyLocation();
    this.append(text);
    this.lastKind = kind;
  }

  private separate(kind: BlockKind): void {
    if (this.lastKind === undefined) return;
    this.append(this.lastKind === kind && kind !== "paragraph" ? "\n" : "\n\n");
  }

  private applyLocation(): void {
    const pending = this.pending;
    if (pending === undefined) return;
    if (this.current !== undefined && sameLocation(this.current, pending)) return;
    this.current = pending;
    if (this.starts.at(-1) === this.length) this.locations[this.locations.length - 1] = pending;
    else {
      this.starts.push(this.length);
      this.locations.push(pending);
    }
  }

  private append(text: string): void {
    this.pieces.push(text);
    this.length += codePointLength(text);
    checkOutputLength(this.length, this.maxOutputCodePoints, this.label);
  }
}
