/**
 * Wire schemas shared by several tools. Inputs are strict (a misspelt argument
 * is an error, not silently ignored); outputs are loose objects so a field the
 * library adds later does not break a client validating the declared schema.
 */
import { z } from "zod";
import { CitationSchema, VERDICTS } from "../../core/contracts.js";

/**
 * A collection name argument; the library validates the characters (no
 * traversal). Undescribed: the name says it, and the server instructions say
 * a call without one uses the server's default collection.
 */
export const CollectionArg = z.string().min(1).max(64);

/** Source text around a span: a length in characters each side, 0 to `max`. */
export function contextCharsArg(max: number, description: string) {
  return z.number().int().min(0).max(max).optional().describe(description);
}

/** A citation as returned by search: what verify_citation accepts. */
export const CitationOut = z.looseObject(CitationSchema.shape).describe(
  "Where the passage sits in its source: offsets are Unicode code points, lines 1-based inclusive.",
);

export const VerificationOut = z.looseObject({
  verdict: z.enum(VERDICTS),
  detail: z.string(),
  relocated: z
    .looseObject({
      start_offset: z.number().int(),
      end_offset: z.number().int(),
      document_id: z.string().optional().describe("Set when the text now sits in another document, or in the cited one at another source (it moved)."),
      source: z.string().optional().describe("That document's source (path or URL)."),
      start_line: z.number().int().optional(),
      end_line: z.number().int().optional(),
    })
    .optional(),
  as_cited: z
    .looseObject({ text: z.string(), version: z.number().int(), ingested_at: z.string(), source: z.string() })
    .optional()
    .describe("Not verified: the cited text as the collection last held it, and that version (document_history)."),
  current_text: z.string().optional().describe("With as_cited: the source's text now at that place."),
});

/** A hit's best-matching passage; offsets are code points of the source document. */
export const PassageOut = z
  .looseObject({
    text: z.string(),
    start_offset: z.number().int(),
    end_offset: z.number().int(),
    terms: z.array(z.looseObject({ term: z.string(), start_offset: z.number().int(), end_offset: z.number().int() })),
    basis: z.enum(["query_terms", "chunk_start"]),
  })
  .describe(
    "The window of the chunk holding the most distinct query terms (`query_terms`), or its start when it holds none " +
      "(`chunk_start`: a dense-only hit). `terms` are the query's analyzed terms (stemmed) where they occur.",
  );

export const SearchHitOut = z.looseObject({
  rank: z.number().int(),
  score: z.number(),
  chunk_id: z.string(),
  document_id: z.string(),
  text: z.string(),
  heading_path: z.array(z.string()),
  lang: z.string().optional().describe("Code and configuration files: the file's language."),
  symbol: z.string().optional().describe("Code chunks: the definition the chunk holds, or is part of (`method Collection.search`)."),
  citation: CitationOut,
  passage: PassageOut,
  verification: VerificationOut.optional(),
  collection: z.string().optional().describe("The hit's collection, when several were searched."),
  context: z.looseObject({ before: z.string(), after: z.string() }).nullable().optional(),
});

/** A hit in `format: "compact"`: the passage as plain text, the citation and the score. */
export const CompactHitOut = z.looseObject({
  rank: z.number().int(),
  score: z.number(),
  chunk_id: z.string(),
  passage: z.string(),
  citation: CitationOut,
  symbol: z.string().optional().describe("Code chunks: the definition the chunk holds, or is part of."),
  verdict: z.enum(VERDICTS).optional(),
  collection: z.string().optional().describe("The hit's collection, when several were searched."),
});

/** Why a search returned nothing. */
export const NoResultsOut = z.looseObject({
  reason: z.enum(["no_searchable_terms", "terms_not_in_index", "filtered_out", "below_min_score", "not_similar_enough"]),
  detail: z.string(),
  best_score: z.number().optional(),
});
