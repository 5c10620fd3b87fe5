/**
 * Small pieces the office readers share: a stack of open paragraphs (a text box
 * can sit inside a paragraph), the table rows being collected, and subtrees
 * whose text is skipped.
 */
import type { OfficeTextWriter, RowCell } from "./office-text-writer.js";

/** Paragraphs being collected; the innermost receives text. */
export class ParagraphStack<P extends { text: string }> {
  private readonly open: P[] = [];

  push(paragraph: P): void {
    this.open.push(paragraph);
  }

  pop(): P | undefined {
    return this.open.pop();
  }

  top(): P | undefined {
    return this.open.at(-1);
  }

  /** Append `text` to the innermost open paragraph; text outside any paragraph is not content. */
  append(text: string): void {
    const top = this.open.at(-1);
    if (top) top.text += text;
  }
}

/**
 * Rows of the outermost open table: a paragraph inside a table goes to the
 * outermost table's current cell (a nested table's text joins that cell).
 */
export class TableRows {
  private depth = 0;
  private cells: RowCell[] | undefined;
  private cell: string | undefined;

  /** The element names of a table, its rows and its cells in the format read. */
  constructor(private readonly names: { table: string; row: string; cells: readonly string[] }) {}

  /** Call on every open tag: follows tables, rows and cells. */
  open(name: string): void {
    if (name === this.names.table) this.openTable();
    else if (name === this.names.row) this.openRow();
    else if (this.names.cells.includes(name)) this.openCell();
  }

  /** Call on every close tag: a finished row of the outermost table goes to `write`. */
  close(name: string, write: (cells: RowCell[]) => void): void {
    if (name === this.names.table) this.closeTable();
    else if (name === this.names.row) this.closeRow(write);
    else if (this.names.cells.includes(name)) this.closeCell();
  }

  get inTable(): boolean {
    return this.depth > 0;
  }

  private openTable(): void {
    this.depth++;
  }

  private closeTable(): void {
    this.depth = Math.max(0, this.depth - 1);
  }

  private openRow(): void {
    if (this.depth === 1) this.cells = [];
  }

  /** The finished row of the outermost table, written by `write` (undefined for a nested table's row). */
  private closeRow(write: (cells: RowCell[]) => void): void {
    if (this.depth !== 1 || this.cells === undefined) return;
    write(this.cells);
    this.cells = undefined;
  }

  private openCell(): void {
    if (this.depth === 1) this.cell = "";
  }

  private closeCell(): void {
    if (this.depth !== 1 || this.cells === undefined || this.cell === undefined) return;
    this.cells.push({ text: this.cell });
    this.cell = undefined;
  }

  /** A paragraph finished inside a table. */
  addParagraph(text: string): void {
    if (this.cell === undefined) return;
    this.cell += this.cell ? `\n${text}` : text;
  }
}

/** WordprocessingML and DrawingML tables. */
export const OOXML_TABLES = { table: "tbl", row: "tr", cells: ["tc"] } as const;

/** Counts how deep the walk is inside subtrees whose text is not content (deleted text, field codes…). */
export class SkippedSubtrees {
  private depth = 0;

  constructor(private readonly names: ReadonlySet<string>) {}

  get active(): boolean {
    return this.depth > 0;
  }

  /** Call on every open tag; true when this element is (inside) a skipped subtree. */
  open(name: string): boolean {
    if (this.depth > 0 || this.names.has(name)) this.depth++;
    return this.depth > 0;
  }

  /** Call on every close tag; true when the element closed was (inside) a skipped subtree. */
  close(): boolean {
    if (this.depth === 0) return false;
    this.depth--;
    return true;
  }
}

/** Deferred writes: a slide's body is known before its title heading can be written. */
export type WriteOp = (writer: OfficeTextWriter) => void;
