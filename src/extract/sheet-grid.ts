/**
 * The grid of a spreadsheet: A1 references and the largest sheet the formats
 * allow (Excel and LibreOffice: 1,048,576 rows by 16,384 columns). A cell
 * claimed outside it is a malformed or hostile file (an ODF row "repeated" a
 * billion times), refused rather than expanded.
 */
import { GroundkitError } from "../core/errors.js";

export const SHEET_MAX_ROWS = 1_048_576;
export const SHEET_MAX_COLUMNS = 16_384;

/** The 1-based column of an A1 reference (`AB7` → 28); undefined when it has no letters. */
export function columnOfReference(ref: string): number | undefined {
  const letters = /^\$?([A-Za-z]{1,3})/.exec(ref)?.[1];
  if (letters === undefined) return undefined;
  let col = 0;
  for (const ch of letters.toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return col;
}

/** The 1-based row of an A1 reference (`AB7` → 7); undefined when it has none. */
export function rowOfReference(ref: string): number | undefined {
  const digits = /^\$?[A-Za-z]{1,3}\$?(\d{1,7})$/.exec(ref)?.[1];
  return digits === undefined ? undefined : Number(digits);
}

/**
 * Refuse a cell outside the largest sheet.
 *
 * @throws GroundkitError `EXTRACTION_FAILED` naming the sheet.
 */
export function checkSheetCell(row: number, col: number, sheet: string, label: string | undefined): void {
  if (row >= 1 && row <= SHEET_MAX_ROWS && col >= 1 && col <= SHEET_MAX_COLUMNS) return;
  throw new GroundkitError(
    "EXTRACTION_FAILED",
    `${label ?? "The spreadsheet"} places a cell of sheet ${sheet} at row ${row}, column ${col}: outside the largest sheet ` +
      `(${SHEET_MAX_ROWS} rows by ${SHEET_MAX_COLUMNS} columns).`,
    { sheet, row, col },
  );
}
