/**
 * The text content of a `search` tool result: a short plain rendering for
 * clients that read only text (one line of where and score per hit, then its
 * passage), rather than a second copy of the structured JSON. The passage is
 * the source's own text, unmarked, so it can be quoted as it is.
 */
import type { Citation } from "../../core/contracts.js";
import type { NoResults } from "../../retrieve/no-results.js";

/** What the rendering needs of one hit, full or compact. */
interface RenderedHit {
  rank: number;
  score: number;
  chunk_id: string;
  citation: Citation;
  passage: string | { text: string };
  verdict?: string | undefined;
  verification?: { verdict: string } | undefined;
  collection?: string | undefined;
  symbol?: string | undefined;
}

/** What the rendering needs of a search output. */
export interface RenderedSearch {
  query: string;
  collection?: string | undefined;
  /** When several collections were searched (each hit then says its own). */
  collections?: readonly string[] | undefined;
  mode: string;
  results: readonly RenderedHit[];
  no_results?: NoResults | undefined;
  omitted?: number | undefined;
}

/** `path:12-30 p.3`: where a citation points (HTML: lines of the file when known, as get_document reads them). */
function where(c: Citation): string {
  const pages =
    (c.page_start != null ? ` p.${c.page_start}${c.page_end != null && c.page_end !== c.page_start ? `-${c.page_end}` : ""}` : "") +
    (c.location != null ? ` ${c.location}` : "");
  const fileLines = c.source_start_line != null && c.source_end_line != null;
  return `${c.source}:${fileLines ? c.source_start_line : c.start_line}-${fileLines ? c.source_end_line : c.end_line}${pages}`;
}

/**
 * @example
 *   renderSearchText(output)
 *   // 2 results for "restore" in default (bm25)
 *   // 1. /docs/guides/backups.md:12-18  score 4.213  chunk 9f2c…  [verified]
 *   //    To restore, stop the service, …
 */
export function renderSearchText(out: RenderedSearch): string {
  const n = out.results.length;
  const head = `${n} result${n === 1 ? "" : "s"} for ${JSON.stringify(out.query)} in ${out.collection ?? (out.collections ?? []).join(", ")} (${out.mode})`;
  const lines = [out.no_results ? `${head}: ${out.no_results.detail}` : head];
  for (const hit of out.results) {
    const verdict = hit.verdict ?? hit.verification?.verdict;
    const passage = typeof hit.passage === "string" ? hit.passage : hit.passage.text;
    lines.push(
      `${hit.rank}. ${hit.collection !== undefined ? `[${hit.collection}] ` : ""}${where(hit.citation)}${hit.symbol ? ` ${hit.symbol}` : ""}  score ${Number(hit.score.toPrecision(4))}  chunk ${hit.chunk_id}${verdict ? `  [${verdict}]` : ""}`,
      `   ${passage.replace(/\s+/g, " ").trim()}`,
    );
  }
  if (out.omitted) lines.push(`(${out.omitted} more hit${out.omitted === 1 ? "" : "s"} left out by max_total_chars)`);
  if (n > 0) lines.push("The structured content has each hit's full citation; pass it to verify_citation, or the chunk id to fetch_chunk.");
  return lines.join("\n");
}
