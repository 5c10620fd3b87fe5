/** `verify_quote` / `POST /v1/verify-quote`: is this exact wording in that chunk or document, and where? */
import { z } from "zod";
import { MAX_QUOTE_CHARS } from "../../answer/verify-quote.js";
import { defineTool } from "../tool-definition.js";
import { CitationOut, CollectionArg, VerificationOut } from "./schemas.js";

export const verifyQuoteTool = defineTool({
  name: "verify_quote",
  title: "Verify a quote",
  description:
    "Check a quote before relying on it: does this exact wording (whitespace differences aside; case, punctuation and " +
    "quote marks must match) occur in the chunk (chunk_id, from search) or in the document's current text (document_id)? " +
    "Returns found or not, the citation of every occurrence (exact code-point offsets, lines, page, hash — cite it or " +
    "re-check it with verify_citation) and a verdict: verified, drifted (the source changed since ingest), " +
    "unresolvable (the source cannot be read) or not_found. Give exactly one of chunk_id and document_id.",
  kind: "read",
  input: z.strictObject({
    quote: z.string().min(1).max(MAX_QUOTE_CHARS).describe("The words to look for, as they would appear between quote marks."),
    chunk_id: z.string().min(1).max(128).optional().describe("Look in this chunk (a search hit's chunk_id)."),
    document_id: z.string().min(1).max(128).optional().describe("Look anywhere in this document's current text."),
    collection: CollectionArg.optional(),
  }),
  output: z.looseObject({
    quote: z.string(),
    scope: z.enum(["chunk", "document"]),
    chunk_id: z.string().nullable(),
    document_id: z.string(),
    found: z.boolean(),
    occurrences: z.array(z.looseObject({ citation: CitationOut, verification: VerificationOut })),
    truncated: z.boolean(),
    verdict: z.enum(["verified", "drifted", "unresolvable", "not_found"]),
    detail: z.string(),
  }),
  rest: { method: "POST", path: "/v1/verify-quote" },
  hints: { destructive: false, idempotent: true, openWorld: false },
  async handler(input, ctx) {
    const collection = input.collection ?? ctx.defaultCollection;
    return ctx.collections.use(collection, (col) =>
      col.verifyQuote(input.quote, { chunkId: input.chunk_id, documentId: input.document_id }, { baseDir: ctx.baseDir }),
    );
  },
});
