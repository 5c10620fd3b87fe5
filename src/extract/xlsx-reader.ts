/**
 * The text of a SpreadsheetML workbook (.xlsx): its sheets in workbook order
 * (hidden ones included), each starting with `# Sheet: <name>`, then one line
 * per row holding its non-empty cells joined with ` | `, each cell located at
 * its sheet, row and column. A cell's text is its stored value: shared and
 * inline strings as written, booleans as TRUE/FALSE, numbers and dates as the
 * stored number (number formats are not applied, so a date reads as its serial
 * number), formulas as their cached result.
 */
import { GroundkitError } from "../core/errors.js";
import type { RowCell } from "./office-text-writer.js";
import type { OfficeTextWriter } from "./office-text-writer.js";
import { readRelationships, relationshipKind } from "./ooxml-parts.js";
import { checkSheetCell, columnOfReference, rowOfReference } from "./sheet-grid.js";
import { attribute, prefixedAttribute } from "./xml-walk.js";
import type { ZipPackage } from "./zip-package.js";

/** Read the workbook `part` of `pkg` into `writer`. */
export async function readXlsx(pkg: ZipPackage, part: string, writer: OfficeTextWriter, label: string | undefined): Promise<void> {
  const rels = await readRelationships(pkg, part);
  const sheets: Array<{ name: string; id: string }> = [];
  await pkg.walkXml(part, {
    open(name, attrs) {
      if (name !== "sheet") return;
      const id = prefixedAttribute(attrs, "id");
      if (id !== undefined) sheets.push({ name: attribute(attrs, "name") ?? "", id });
    },
    close() {},
    text() {},
  });
  const sharedPart = [...rels.values()].find((r) => !r.external && relationshipKind(r.type) === "sharedStrings" && pkg.has(r.target));
  const shared = sharedPart ? await readSharedStrings(pkg, sharedPart.target) : [];
  for (const sheet of sheets) {
    const rel = rels.get(sheet.id);
    if (!rel || rel.external || !pkg.has(rel.target)) {
      throw new GroundkitError("EXTRACTION_FAILED", `${label ?? "The workbook"} lists sheet ${sheet.name} but its part is missing.`, { sheet: sheet.name });
    }
    // Chartsheets and dialog sheets hold no cells.
    if (relationshipKind(rel.type) !== "worksheet") continue;
    writer.locate({ sheet: sheet.name });
    writer.heading(1, `Sheet: ${sheet.name}`);
    await readWorksheet(pkg, rel.target, sheet.name, shared, writer, label);
  }
}

/** The shared string table: each item's text runs concatenated (phonetic runs left out). */
async function readSharedStrings(pkg: ZipPackage, part: string): Promise<string[]> {
  const strings: string[] = [];
  let current: string | undefined;
  let textDepth = 0;
  let phonetic = 0;
  await pkg.walkXml(part, {
    open(name) {
      if (name === "si") current = "";
      else if (name === "rPh") phonetic++;
      else if (name === "t") textDepth++;
    },
    close(name) {
      if (name === "si" && current !== undefined) {
        strings.push(current);
        current = undefined;
      } else if (name === "rPh") phonetic--;
      else if (name === "t") textDepth--;
    },
    text(text) {
      if (current !== undefined && textDepth > 0 && phonetic === 0) current += text;
    },
  });
  return strings;
}

async function readWorksheet(
  pkg: ZipPackage,
  part: string,
  sheet: string,
  shared: readonly string[],
  writer: OfficeTextWriter,
  label: string | undefined,
): Promise<void> {
  let row = 0;
  let col = 0;
  let cells: RowCell[] | undefined;
  let cell: { type: string; value: string; inline: string } | undefined;
  let valueDepth = 0;
  let inlineDepth = 0;
  let phonetic = 0;
  await pkg.walkXml(part, {
    open(name, attrs) {
      switch (name) {
        case "row": {
          const r = Number(attribute(attrs, "r"));
          row = Number.isInteger(r) && r > row ? r : row + 1;
          col = 0;
          cells = [];
          break;
        }
        case "c": {
          const ref = attribute(attrs, "r");
          const c = ref === undefined ? undefined : columnOfReference(ref);
          col = c !== undefined && c > col ? c : col + 1;
          if (ref !== undefined) row = rowOfReference(ref) ?? row;
          checkSheetCell(row, col, sheet, label);
          cell = { type: attribute(attrs, "t") ?? "n", value: "", inline: "" };
          break;
        }
        case "v":
          valueDepth++;
          break;
        case "is":
          inlineDepth++;
          break;
        case "rPh":
          phonetic++;
          break;
      }
    },
    close(name) {
      switch (name) {
        case "c":
          if (cell && cells) cells.push({ text: cellText(cell, shared), location: { sheet, row, col } });
          cell = undefined;
          break;
        case "row":
          if (cells) writer.row(cells);
          cells = undefined;
          break;
        case "v":
          valueDepth--;
          break;
        case "is":
          inlineDepth--;
          break;
        case "rPh":
          phonetic--;
          break;
      }
    },
    text(text) {
      if (!cell) return;
      if (valueDepth > 0) cell.value += text;
      else if (inlineDepth > 0 && phonetic === 0) cell.inline += text;
    },
  });
}

function cellText(cell: { type: string; value: string; inline: string }, shared: readonly string[]): string {
  switch (cell.type) {
    case "s": {
      const index = Number(cell.value);
      return Number.isInteger(index) ? (shared[index] ?? "") : "";
    }
    case "inlineStr":
      return cell.inline;
    case "b":
      return cell.value.trim() === "1" ? "TRUE" : cell.value.trim() === "0" ? "FALSE" : cell.value;
    default:
      return cell.value;
  }
}
