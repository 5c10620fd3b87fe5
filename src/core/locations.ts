/**
 * Where a passage of an office document or e-book sits, in the terms its reader
 * uses: the slide of a deck, the sheet and cells of a spreadsheet, the chapter of
 * an e-book, the heading path of a word-processing file. The extractor reports a
 * {@link LocationMap} for its text; the chunker labels each chunk with
 * {@link locationLabel} and verification re-derives the map with the same
 * extractor and checks a citation's label with the same function, so both agree
 * (docs/decisions/0022-office-documents.md).
 */
import { lastAtMost } from "./sorted-search.js";

/** What one run of extracted text belongs to. */
export type Location =
  | { slide: number }
  | { chapter: number; title?: string | undefined }
  | { headings: string[] }
  | { sheet: string; row?: number | undefined; col?: number | undefined };

/**
 * Sorted runs of the extracted text: the code points from `starts[i]` up to
 * `starts[i + 1]` belong to `locations[i]`. `starts` is strictly increasing from 0;
 * empty for an empty text.
 */
export interface LocationMap {
  starts: number[];
  locations: Location[];
}

/**
 * The reader's label for the extracted span [start, end): `slide 3`, `slides 3-4`,
 * `Budget!A1:C7`, `chapter 2 (The Road)`, `Install > Linux`; undefined when the map
 * is empty or the span lies before any located text.
 *
 * @example
 *   locationLabel({ starts: [0, 40], locations: [{ slide: 1 }, { slide: 2 }] }, 10, 50) // "slides 1-2"
 */
export function locationLabel(map: LocationMap, start: number, end: number): string | undefined {
  if (map.starts.length === 0) return undefined;
  const first = Math.max(0, lastAtMost(map.starts, start));
  const last = Math.max(first, lastAtMost(map.starts, end > start ? end - 1 : start));
  const a = map.locations[first]!;
  const b = map.locations[last]!;
  if ("slide" in a && "slide" in b) return a.slide === b.slide ? `slide ${a.slide}` : `slides ${a.slide}-${b.slide}`;
  if ("chapter" in a && "chapter" in b) {
    if (a.chapter !== b.chapter) return `chapters ${a.chapter}-${b.chapter}`;
    return a.title ? `chapter ${a.chapter} (${a.title})` : `chapter ${a.chapter}`;
  }
  if ("headings" in a && "headings" in b) {
    const from = headingLabel(a.headings);
    const to = headingLabel(b.headings);
    return from === to ? from : `${from} to ${to}`;
  }
  return sheetLabel(map.locations, first, last);
}

function headingLabel(headings: readonly string[]): string {
  return headings.length ? headings.join(" > ") : "(before the first heading)";
}

/** The cell range of each sheet the runs first..last touch, in order: `Budget!A2:C7, 'Q1 Staff'!A1:B3`. */
function sheetLabel(locations: readonly Location[], first: number, last: number): string | undefined {
  const ranges: Array<{ sheet: string; rows: [number, number]; cols: [number, number] } | { sheet: string; rows?: undefined }> = [];
  for (let i = first; i <= last; i++) {
    const loc = locations[i]!;
    if (!("sheet" in loc)) continue;
    let range = ranges.at(-1);
    if (range?.sheet !== loc.sheet) {
      range = { sheet: loc.sheet };
      ranges.push(range);
    }
    if (loc.row === undefined || loc.col === undefined) continue;
    if (range.rows === undefined) Object.assign(range, { rows: [loc.row, loc.row], cols: [loc.col, loc.col] });
    else {
      const r = range as { rows: [number, number]; cols: [number, number] };
      r.rows = [Math.min(r.rows[0], loc.row), Math.max(r.rows[1], loc.row)];
      r.cols = [Math.min(r.cols[0], loc.col), Math.max(r.cols[1], loc.col)];
    }
  }
  if (ranges.length === 0) return undefined;
  return ranges
    .map((r) => {
      const name = sheetName(r.sheet);
      if (r.rows === undefined) return `sheet ${name}`;
      const { rows, cols } = r as { rows: [number, number]; cols: [number, number] };
      const from = cellName(rows[0], cols[0]);
      const to = cellName(rows[1], cols[1]);
      return `${name}!${from === to ? from : `${from}:${to}`}`;
    })
    .join(", ");
}

/** A sheet name as a spreadsheet formula writes it: quoted when it is not a plain word. */
function sheetName(name: string): string {
  return /^[\p{L}_][\p{L}\p{N}_.]*$/u.test(name) ? name : `'${name.replaceAll("'", "''")}'`;
}

/**
 * The A1-style name of a cell (1-based row and column).
 *
 * @example
 *   cellName(7, 28) // "AB7"
 */
export function cellName(row: number, col: number): string {
  let letters = "";
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return `${letters}${row}`;
}
