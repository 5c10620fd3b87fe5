/** `search` / `POST /v1/search`: ranked passages, each with its citation. */
import { z } from "zod";
import type { SearchOptions } from "../../collection.js";
import { MAX_QUERY_CHARS, MAX_TOP_K } from "../../retrieve/query.js";
import { MAX_FILTERS } from "../../retrieve/filters.js";
import { SEARCH_MODES } from "../../retrieve/search-pipeline.js";
import { searchAcross } from "../../search-across.js";
import { GroundkitError } from "../../core/errors.js";
import { defineTool } from "../tool-definition.js";
import { CollectionArg, SearchHitOut } from "./schemas.js";

export const searchTool = defineTool({
  name: "search",
  title: "Search a collection",
  description:
    "Search a groundkit collection. Returns ranked passages; each carries a citation (source, code-point offsets, " +
    "lines, page, text hash) that can be re-verified. Cite a passage by its citation; call fetch_chunk with its " +
    "chunk_id to re-check it against the source before quoting.",
  kind: "read",
  input: z.strictObject({
    query: z.string().min(1).max(MAX_QUERY_CHARS).describe(`What to search for (at most ${MAX_QUERY_CHARS} characters).`),
    collection: CollectionArg.optional(),
    collections: z
      .array(CollectionArg)
      .min(1)
      .max(64)
      .optional()
      .describe("Search these collections at once (instead of collection): hits are fused by rank and labelled by collection."),
    all_collections: z.boolean().optional().describe("Search every collection of the server at once."),
    top_k: z.number().int().min(1).max(MAX_TOP_K).optional().describe(`Number of results, 1-${MAX_TOP_K} (default 10).`),
    mode: z.enum(SEARCH_MODES).optional().describe("Retrieval mode (default bm25). dense and hybrid need a collection with vectors."),
    filters: z
      .array(z.string().min(1).max(512))
      .max(MAX_FILTERS)
      .optional()
      .describe("Restrictions such as `path=guides/**`, `class=text`, `ext=md`, `tag=security` (all must hold)."),
    rerank: z.boolean().optional().describe("Rerank the candidates before returning them."),
    verify: z.boolean().optional().describe("Re-check every hit against its source and attach a verdict."),
  }),
  output: z.looseObject({
    query: z.string(),
    collection: z.string().optional().describe("The collection searched (absent when several were)."),
    collections: z.array(z.string()).optional().describe("The collections searched, when several were."),
    mode: z.enum(SEARCH_MODES),
    results: z.array(SearchHitOut),
  }),
  rest: { method: "POST", path: "/v1/search" },
  hints: { destructive: false, idempotent: true, openWorld: false },
  async handler(input, ctx) {
    // mode, filters and rerank are validated by the library; passed through as given.
    const options = {
      topK: input.top_k,
      verify: input.verify,
      baseDir: ctx.baseDir,
      mode: input.mode,
      filters: input.filters,
      rerank: input.rerank,
    } as SearchOptions;
    const several = input.all_collections ? ctx.collections.names() : input.collections;
    if (several) {
      if (input.collection) throw new GroundkitError("INVALID_ARGUMENT", "Pass collection, collections or all_collections, not several.");
      if (several.length === 0) throw new GroundkitError("COLLECTION_NOT_FOUND", "This server has no collections to search.");
      const results = await ctx.collections.useMany(several, (cols) => searchAcross(cols, input.query, options));
      return { query: input.query, collections: several, mode: input.mode ?? "bm25", results };
    }
    const collection = input.collection ?? ctx.defaultCollection;
    const results = await ctx.collections.use(collection, (col) => col.search(input.query, options));
    return { query: input.query, collection, mode: input.mode ?? "bm25", results };
  },
});
