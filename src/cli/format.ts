/**
 * Human-readable rendering of results (the --json shapes are the data itself).
 */
import { relative } from "node:path";
import type { Citation, SearchHit, Verification } from "../core/contracts.js";
import { hasUrlScheme } from "../net/url-shape.js";

/** A source shown relative to the working directory when it is a path under it; a URL of any scheme as it is. */
export function displaySource(source: string): string {
  if (hasUrlScheme(source)) return source;
  const rel = relative(process.cwd(), source);
  return rel && !rel.startsWith("..") ? rel : source;
}

/** `path:12-30` or `path p.3` — where a citation points. */
export function locator(c: Citation): string {
  const page =
    c.page_start != null ? ` p.${c.page_start}${c.page_end != null && c.page_end !== c.page_start ? `-${c.page_end}` : ""}` : "";
  // An extracted source's lines are lines of its extracted text (what `grk get` prints), not of the HTML or PDF file.
  const of = c.source_class === "extracted" ? " (lines of extracted text)" : "";
  return `${displaySource(c.source)}:${c.start_line}-${c.end_line}${page}${of}`;
}

export function verdictLabel(v: Verification | undefined): string {
  return v ? `[${v.verdict}]` : "";
}

/** One-line snippet of a chunk's text. */
export function snippet(text: string, max = 240): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

export function renderHit(hit: SearchHit): string[] {
  const heading = hit.heading_path.length ? `  ${hit.heading_path.join(" > ")}` : "";
  const lines = [
    `${hit.rank}. ${locator(hit.citation)}  score ${hit.score.toFixed(3)}${heading}  ${verdictLabel(hit.verification)}`.trimEnd(),
    `   ${snippet(hit.text)}`,
    `   chunk ${hit.chunk_id}  offsets ${hit.citation.start_offset}-${hit.citation.end_offset}`,
  ];
  if (hit.verification && hit.verification.verdict !== "verified") lines.push(`   ${hit.verification.detail}`);
  return lines;
}
