/**
 * Wire schemas shared by several tools. Inputs are strict (a misspelt argument
 * is an error, not silently ignored); outputs are loose objects so a field the
 * library adds later does not break a client validating the declared schema.
 */
import { z } from "zod";
import { CitationSchema, VERDICTS } from "../../core/contracts.js";

/** A collection name argument; the library validates the characters (no traversal). */
export const CollectionArg = z
  .string()
  .min(1)
  .max(64)
  .describe("Collection name (default: the server's default collection). 1-64 of [A-Za-z0-9._-], starting with a letter or digit.");

/** A citation as returned by search: what verify_citation accepts. */
export const CitationOut = z.looseObject(CitationSchema.shape).describe(
  "Where the passage sits in its source: offsets are Unicode code points, lines 1-based inclusive.",
);

export const VerificationOut = z.looseObject({
  verdict: z.enum(VERDICTS),
  detail: z.string(),
  relocated: z.looseObject({ start_offset: z.number().int(), end_offset: z.number().int() }).optional(),
});

export const SearchHitOut = z.looseObject({
  rank: z.number().int(),
  score: z.number(),
  chunk_id: z.string(),
  document_id: z.string(),
  text: z.string(),
  heading_path: z.array(z.string()),
  citation: CitationOut,
  verification: VerificationOut.optional(),
  collection: z.string().optional().describe("The hit's collection, when several were searched."),
});
