/**
 * Human-readable rendering of results (the --json shapes are the data itself).
 */
import { relative } from "node:path";
import type { Citation, MatchedPassage, SearchHit, Verification } from "../core/contracts.js";
import { hasUrlScheme } from "../net/url-shape.js";

/** A source shown relative to the working directory when it is a path under it; a URL of any scheme as it is. */
export function displaySource(source: string): string {
  if (hasUrlScheme(source)) return source;
  const rel = relative(process.cwd(), source);
  return rel && !rel.startsWith("..") ? rel : source;
}

/** Text on one line, shortened to `max` code points with an ellipsis. */
export function snippet(text: string, max = 240): string {
  const flat = Array.from(text.replace(/\s+/g, " ").trim());
  return flat.length > max ? flat.slice(0, max - 1).join("") + "…" : flat.join("");
}

/**
 * `path:12-30`, `path:4-9 p.3` or `deck.pptx:4-9 slide 2` — where a citation points. Lines are the
 * file's when known (text files; HTML with source lines), which `grk get path:12-30` reads back; an
 * office document or e-book adds where the text sits as its reader names it (slide, sheet cells, chapter, headings).
 */
export function locator(c: Citation): string {
  const page =
    (c.page_start != null ? ` p.${c.page_start}${c.page_end != null && c.page_end !== c.page_start ? `-${c.page_end}` : ""}` : "") +
    (c.location != null ? ` ${c.location}` : "");
  if (c.source_start_line != null && c.source_end_line != null) {
    return `${displaySource(c.source)}:${c.source_start_line}-${c.source_end_line}${page}`;
  }
  // Otherwise an extracted source's lines are lines of its extracted text (PDFs; HTML indexed before source lines).
  const of = c.source_class === "extracted" ? " (lines of extracted text)" : "";
  return `${displaySource(c.source)}:${c.start_line}-${c.end_line}${page}${of}`;
}

/** A verdict's cited text as it was (docs/decisions/0031-document-history.md), when it carries one. */
export function asCitedLines(v: Verification, indent = "", shown?: string): string[] {
  const was = v.as_cited;
  if (!was) return [];
  const when = was.version === 0 ? `indexed ${was.ingested_at} (the source changed since)` : `version ${was.version}, ingested ${was.ingested_at}`;
  // Text already printed just above (a chunk kept in history) is named, not repeated.
  if (was.text === shown) return [`${indent}(the text above is as cited: ${when}, ${displaySource(was.source)})`];
  return [`${indent}as cited (${when}, ${displaySource(was.source)}):`, ...was.text.split("\n").map((l) => `${indent}| ${l}`), ""];
}

export function verdictLabel(v: Verification | undefined): string {
  return v ? `[${v.verdict}]` : "";
}

/** How matched terms are marked: ANSI bold + underline on a terminal, brackets in a pipe or file. */
export type MarkStyle = "ansi" | "brackets";

/** ANSI on a TTY unless NO_COLOR is set (https://no-color.org). */
export function markStyleFor(stream: { isTTY?: boolean }): MarkStyle {
  return stream.isTTY && !process.env.NO_COLOR ? "ansi" : "brackets";
}

/**
 * A passage on one line with its matched terms marked, e.g. `To [restore], stop the service`.
 * Markers go in before whitespace is flattened, so they stay on the term they mark.
 */
export function markedPassage(p: MatchedPassage, style: MarkStyle): string {
  const [open, close] = style === "ansi" ? ["\x1b[1;4m", "\x1b[0m"] : ["[", "]"];
  const chars = Array.from(p.text);
  // Overlapping occurrences (CJK bigrams) merge into one mark.
  const ranges: Array<[number, number]> = [];
  for (const t of p.terms) {
    const range: [number, number] = [t.start_offset - p.start_offset, t.end_offset - p.start_offset];
    const last = ranges.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else ranges.push(range);
  }
  let out = "";
  let at = 0;
  for (const [start, end] of ranges) {
    out += chars.slice(at, start).join("") + open + chars.slice(start, end).join("") + close;
    at = end;
  }
  out += chars.slice(at).join("");
  const flat = out.replace(/\s+/g, " ").trim();
  return p.basis === "chunk_start" ? `${flat} (no query term in this chunk: its start)` : flat;
}

export function renderHit(hit: SearchHit, style: MarkStyle = "brackets"): string[] {
  const heading = hit.heading_path.length ? `  ${hit.heading_path.join(" > ")}` : "";
  const lines = [
    `${hit.rank}. ${locator(hit.citation)}${hit.symbol ? ` ${hit.symbol}` : ""}  score ${hit.score.toFixed(3)}${heading}  ${verdictLabel(hit.verification)}`.trimEnd(),
    `   ${markedPassage(hit.passage, style)}`,
    `   chunk ${hit.chunk_id}  offsets ${hit.citation.start_offset}-${hit.citation.end_offset}`,
  ];
  if (hit.verification && hit.verification.verdict !== "verified") lines.push(`   ${hit.verification.detail}`);
  return lines;
}
