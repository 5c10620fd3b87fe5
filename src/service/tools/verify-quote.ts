/** `verify_quote` / `POST /v1/verify-quote`: is this exact wording in that chunk or document, and where? */
import { z } from "zod";
import { MAX_QUOTE_CHARS } from "../../answer/verify-quote.js";
import { defineTool } from "../tool-definition.js";
import { CitationOut, CollectionArg, VerificationOut } from "./schemas.js";

export const verifyQuoteTool = defineTool({
  name: "verify_quote",
  title: "Verify a quote",
  description:
    "Find an exact quote (whitespace aside) in a chunk or a document: a citation per occurrence and a verdict.",
  kind: "read",
  input: z.strictObject({
    quote: z.string().min(1).max(MAX_QUOTE_CHARS),
    chunk_id: z.string().min(1).max(128).optional(),
    document_id: z.string().min(1).max(128).optional(),
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
