/** `search` / `POST /v1/search`: ranked passages, each with its citation. */
import { z } from "zod";
import type { SearchOptions } from "../../collection/index.js";
import { GroundkitError } from "../../core/errors.js";
import { MAX_QUERY_CHARS, MAX_TOP_K } from "../../retrieve/query.js";
import { MAX_FILTERS } from "../../retrieve/filters.js";
import { DEFAULT_PASSAGE_CHARS } from "../../retrieve/passage.js";
import { SEARCH_MODES, type SearchMode } from "../../retrieve/search-pipeline.js";
import type { SearchHit } from "../../core/contracts.js";
import type { NoResults } from "../../retrieve/no-results.js";
import { searchAcross } from "../../collection/search-across.js";
import { defineTool } from "../tool-definition.js";
import { compactHits, DEFAULT_COMPACT_CHARS } from "./compact-hits.js";
import { MAX_CONTEXT_CHARS } from "./fetch-chunk.js";
import { CollectionArg, CompactHitOut, contextCharsArg, NoResultsOut, SearchHitOut } from "./schemas.js";
import { renderSearchText, type RenderedSearch } from "./search-text.js";

/** Longest passage a hit may ask for, in code points (a chunk is at most a few thousand). */
export const MAX_PASSAGE_CHARS = 8000;

export const searchTool = defineTool({
  name: "search",
  title: "Search a collection",
  description:
    "Search a collection. Before quoting a hit, fetch_chunk its chunk_id: the whole chunk, re-checked against its source.",
  kind: "read",
  input: z.strictObject({
    query: z.string().min(1).max(MAX_QUERY_CHARS),
    collection: CollectionArg.optional(),
    collections: z
      .array(CollectionArg)
      .min(1)
      .max(64)
      .optional()
      .describe("Several at once (fused by rank)."),
    all_collections: z.boolean().optional().describe("Every collection at once."),
    top_k: z.number().int().min(1).max(MAX_TOP_K).optional().describe("Default 10."),
    mode: z.enum(SEARCH_MODES).optional().describe("Default bm25."),
    filters: z
      .array(z.string().min(1).max(512))
      .max(MAX_FILTERS)
      .optional()
      .describe("All must hold: `path=guides/**`, `ext=md`, `lang=go`…"),
    rerank: z.boolean().optional(),
    verify: z.boolean().optional().describe("Re-check each hit against its source."),
    min_score: z
      .number()
      .optional()
      .describe("Drop hits scoring under this."),
    format: z
      .enum(["full", "compact"])
      .optional()
      .describe("compact (MCP default) or full (adds chunk text, headings, offsets)."),
    max_chars: z
      .number()
      .int()
      .min(20)
      .max(MAX_PASSAGE_CHARS)
      .optional()
      .describe(`Passage length per hit (default ${DEFAULT_PASSAGE_CHARS}, compact ${DEFAULT_COMPACT_CHARS}).`),
    max_total_chars: z
      .number()
      .int()
      .min(1)
      .max(MAX_TOP_K * MAX_PASSAGE_CHARS)
      .optional()
      .describe("Compact: bound on all passages; hits left out are counted in `omitted`."),
    context_chars: contextCharsArg(
      MAX_CONTEXT_CHARS,
      `Full only: source text each side of each hit (0-${MAX_CONTEXT_CHARS}; implies verify).`,
    ),
  }),
  output: z.looseObject({
    query: z.string(),
    collection: z.string().optional().describe("The collection searched (absent when several were)."),
    collections: z.array(z.string()).optional().describe("The collections searched, when several were."),
    mode: z.enum(SEARCH_MODES),
    format: z.enum(["full", "compact"]),
    results: z.array(z.union([SearchHitOut, CompactHitOut])),
    no_results: NoResultsOut.optional(),
    omitted: z.number().int().optional().describe("Compact hits left out by max_total_chars."),
  }),
  rest: { method: "POST", path: "/v1/search" },
  hints: { destructive: false, idempotent: true, openWorld: false },
  // Agents get the compact form unless they ask otherwise (context_chars asks for the full one).
  mcpDefaults: (args) => (args.format === undefined && args.context_chars === undefined ? { ...args, format: "compact" } : args),
  async handler(input, ctx) {
    const format = input.format ?? "full";
    if (format === "full" && input.max_total_chars !== undefined) {
      throw new GroundkitError("INVALID_ARGUMENT", "max_total_chars bounds the compact form; pass format: \"compact\" with it.");
    }
    if (format === "compact" && input.context_chars) {
      throw new GroundkitError("INVALID_ARGUMENT", "context_chars adds source text to the full form; it does not go with format: \"compact\".");
    }
    // mode, filters and rerank are validated by the library; passed through as given.
    const options = {
      topK: input.top_k,
      verify: input.verify,
      baseDir: ctx.baseDir,
      mode: input.mode,
      filters: input.filters,
      rerank: input.rerank,
      minScore: input.min_score,
      passageChars: input.max_chars ?? (format === "compact" ? DEFAULT_COMPACT_CHARS : DEFAULT_PASSAGE_CHARS),
      contextChars: input.context_chars,
    } as SearchOptions;
    const several = input.all_collections ? await ctx.collections.names() : input.collections;
    const mode: SearchMode = input.mode ?? "bm25";
    let head: { query: string; collection?: string; collections?: string[]; mode: SearchMode; format: "full" | "compact" };
    let outcome: { results: SearchHit[]; no_results?: NoResults | undefined };
    if (several) {
      if (input.collection) throw new GroundkitError("INVALID_ARGUMENT", "Pass collection, collections or all_collections, not several.");
      if (several.length === 0) throw new GroundkitError("COLLECTION_NOT_FOUND", "This server has no collections to search.");
      head = { query: input.query, collections: several, mode, format };
      outcome = { results: await ctx.collections.useMany(several, (cols) => searchAcross(cols, input.query, options)) };
    } else {
      const collection = input.collection ?? ctx.defaultCollection;
      head = { query: input.query, collection, mode, format };
      outcome = await ctx.collections.use(collection, (col) => col.searchOutcome(input.query, options));
    }
    const tail = outcome.no_results ? { no_results: outcome.no_results } : {};
    if (format === "full") return { ...head, results: outcome.results, ...tail };
    const { results, omitted } = compactHits(outcome.results, input.max_total_chars);
    return { ...head, results, ...tail, ...(omitted > 0 ? { omitted } : {}) };
  },
  renderText: (output) => renderSearchText(output as unknown as RenderedSearch),
});
