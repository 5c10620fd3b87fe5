/** `fetch_chunk` / `GET /v1/collections/{c}/chunks/{id}`: a chunk with a fresh verdict. */
import { z } from "zod";
import { defineTool } from "../tool-definition.js";
import { CitationOut, CollectionArg, contextCharsArg, VerificationOut } from "./schemas.js";

/** Context per hit a search may ask for (each side of each hit's span). */
export const MAX_CONTEXT_CHARS = 2000;

/** Context one fetched chunk may ask for: a document view around the cited span. */
export const MAX_DOCUMENT_CONTEXT_CHARS = 100_000;

export const fetchChunkTool = defineTool({
  name: "fetch_chunk",
  title: "Fetch and re-verify a chunk",
  description:
    "A chunk by chunk_id, re-verified against its source now; its text only when verified.",
  kind: "read",
  input: z.strictObject({
    chunk_id: z.string().min(1).max(200),
    collection: CollectionArg.optional(),
    context_chars: contextCharsArg(
      MAX_DOCUMENT_CONTEXT_CHARS,
      "Also return this many characters of source each side of a verified span.",
    ),
  }),
  output: z.looseObject({
    collection: z.string(),
    chunk_id: z.string(),
    document_id: z.string(),
    heading_path: z.array(z.string()),
    citation: CitationOut,
    verdict: VerificationOut.shape.verdict,
    detail: z.string(),
    relocated: VerificationOut.shape.relocated,
    as_cited: VerificationOut.shape.as_cited,
    current_text: VerificationOut.shape.current_text,
    text: z.string().nullable().describe("The chunk text, only when verified."),
    context: z.looseObject({ before: z.string(), after: z.string() }).nullable(),
  }),
  rest: { method: "GET", path: "/v1/collections/:collection/chunks/:chunk_id" },
  hints: { destructive: false, idempotent: true, openWorld: false },
  async handler(input, ctx) {
    const collection = input.collection ?? ctx.defaultCollection;
    return ctx.collections.use(collection, async (col) => {
      const view = await col.getChunk(input.chunk_id, { baseDir: ctx.baseDir, contextChars: input.context_chars });
      const verified = view.verification.verdict === "verified";
      return {
        collection,
        chunk_id: view.chunk_id,
        document_id: view.document_id,
        heading_path: view.heading_path,
        citation: view.citation,
        verdict: view.verification.verdict,
        detail: view.verification.detail,
        ...(view.verification.relocated ? { relocated: view.verification.relocated } : {}),
        ...(view.verification.as_cited ? { as_cited: view.verification.as_cited, current_text: view.verification.current_text } : {}),
        text: verified ? view.text : null,
        context: view.context,
      };
    });
  },
});
