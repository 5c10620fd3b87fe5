/**
 * The text of an OpenDocument spreadsheet (.ods) from its `content.xml`: each
 * `table:table` is a sheet, written like an .xlsx sheet (`# Sheet: <name>`, one
 * line per row of its non-empty cells joined with ` | `, each cell located at
 * its sheet, row and column). A cell's text is its displayed paragraphs (ODF
 * stores the formatted value). Repeated rows and columns advance the grid
 * without being expanded when empty; a repeated non-empty cell is written once
 * per repetition (the output limit bounds it). Comments and shapes are skipped.
 */
import type { OfficeTextWriter, RowCell } from "./office-text-writer.js";
import { SkippedSubtrees } from "./office-blocks.js";
import { checkSheetCell, SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from "./sheet-grid.js";
import { attribute } from "./xml-walk.js";
import type { ZipPackage } from "./zip-package.js";

const SKIPPED = new Set(["annotation", "shapes", "named-expressions", "database-ranges", "forms", "automatic-styles", "font-face-decls", "scripts"]);

function repeats(value: string | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** Read `content.xml` of an ODF spreadsheet into `writer`. */
export async function readOds(pkg: ZipPackage, writer: OfficeTextWriter, label: string | undefined): Promise<void> {
  const skipped = new SkippedSubtrees(SKIPPED);
  let sheet: string | undefined;
  let tableDepth = 0;
  let row = 0;
  let rowRepeat = 1;
  let col = 0;
  let cells: Array<{ text: string; col: number; repeat: number }> | undefined;
  let cell: { text: string; repeat: number; paragraphs: number } | undefined;
  let paragraphDepth = 0;
  await pkg.walkXml("content.xml", {
    open(name, attrs) {
      if (skipped.open(name)) return;
      switch (name) {
        case "table":
          // A sheet's nested tables (sub-tables) are read as part of it.
          if (tableDepth++ === 0) {
            sheet = attribute(attrs, "name") ?? "";
            row = 0;
            writer.locate({ sheet });
            writer.heading(1, `Sheet: ${sheet}`);
          }
          break;
        case "table-row":
          rowRepeat = repeats(attribute(attrs, "number-rows-repeated"));
          row++;
          col = 0;
          cells = [];
          break;
        case "table-cell":
        case "covered-table-cell":
          cell = { text: "", repeat: repeats(attribute(attrs, "number-columns-repeated")), paragraphs: 0 };
          break;
        case "p":
          if (cell) cell.text += cell.paragraphs++ ? "\n" : "";
          paragraphDepth++;
          break;
        case "s":
        case "tab":
          if (cell && paragraphDepth > 0) cell.text += " ";
          break;
        case "line-break":
          if (cell && paragraphDepth > 0) cell.text += "\n";
          break;
      }
    },
    close(name) {
      if (skipped.close()) return;
      switch (name) {
        case "table":
          if (--tableDepth === 0) sheet = undefined;
          break;
        case "table-row": {
          if (sheet !== undefined && cells && cells.length) {
            const name = sheet;
            for (let r = 0; r < rowRepeat; r++) {
              checkSheetCell(row + r, 1, name, label);
              const line: RowCell[] = [];
              for (const c of cells) {
                for (let k = 0; k < c.repeat; k++) line.push({ text: c.text, location: { sheet: name, row: row + r, col: c.col + k } });
              }
              writer.row(line);
            }
          }
          // Empty repeated rows (a sheet's formatted tail, up to the last row) only move the grid.
          row = Math.min(row + rowRepeat - 1, SHEET_MAX_ROWS + 1);
          cells = undefined;
          break;
        }
        case "table-cell":
        case "covered-table-cell":
          if (cell && cells) {
            if (cell.text.trim()) {
              checkSheetCell(row, col + cell.repeat, sheet ?? "", label);
              cells.push({ text: cell.text, col: col + 1, repeat: cell.repeat });
            }
            // Columns past the grid can only be empty filler; they are never expanded.
            col = Math.min(col + cell.repeat, SHEET_MAX_COLUMNS + 1);
          }
          cell = undefined;
          break;
        case "p":
          paragraphDepth--;
          break;
      }
    },
    text(text) {
      if (!skipped.active && cell && paragraphDepth > 0) cell.text += text;
    },
  });
}
