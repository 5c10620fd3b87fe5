/** `verify_citation` / `POST /v1/verify`: re-check a citation against its source. */
import { z } from "zod";
import { CitationSchema } from "../../core/contracts.js";
import { defineTool } from "../tool-definition.js";
import { CitationOut, CollectionArg, VerificationOut } from "./schemas.js";

export const verifyCitationTool = defineTool({
  name: "verify_citation",
  title: "Verify a citation",
  description:
    "Re-check a citation against its source: verified, drifted (with where it went) or unresolvable.",
  kind: "read",
  input: z.strictObject({
    citation: CitationSchema.describe("As search or fetch_chunk returned it."),
    text: z.string().max(1_000_000).optional().describe("The cited text, if known."),
    collection: CollectionArg.optional(),
  }),
  output: z.looseObject({
    verdict: VerificationOut.shape.verdict,
    detail: z.string(),
    relocated: VerificationOut.shape.relocated,
    as_cited: VerificationOut.shape.as_cited,
    current_text: VerificationOut.shape.current_text,
    citation: CitationOut,
  }),
  rest: { method: "POST", path: "/v1/verify" },
  hints: { destructive: false, idempotent: true, openWorld: false },
  invalidInputCodes: { citation: "INVALID_CITATION" },
  async handler(input, ctx) {
    const collection = input.collection ?? ctx.defaultCollection;
    const verification = await ctx.collections.use(collection, (col) =>
      col.verify(input.citation, { baseDir: ctx.baseDir, originalText: input.text }),
    );
    return { ...verification, citation: input.citation };
  },
});
