/** `list_documents` / `GET /v1/collections/{c}/documents`: a collection's documents, a page at a time. */
import { z } from "zod";
import { DOCUMENT_PAGE } from "../../collection/index.js";
import { SOURCE_CLASSES } from "../../core/contracts.js";
import { defineTool } from "../tool-definition.js";
import { CollectionArg } from "./schemas.js";

export const listDocumentsTool = defineTool({
  name: "list_documents",
  title: "List documents",
  description: "A collection's documents in source order; next_after is the next page's after.",
  kind: "read",
  input: z.strictObject({
    collection: CollectionArg.optional(),
    prefix: z.string().min(1).max(4096).optional().describe("Only sources starting with this."),
    after: z.string().min(1).max(4096).optional().describe("The next_after of the previous page."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(DOCUMENT_PAGE.max)
      .optional()
      .describe(`Default ${DOCUMENT_PAGE.default}.`),
  }),
  output: z.looseObject({
    collection: z.string(),
    documents: z.array(
      z.looseObject({
        document_id: z.string(),
        source: z.string(),
        source_class: z.enum(SOURCE_CLASSES),
        extractor: z.string().nullable(),
        chunks: z.number().int(),
        ingested_at: z.string(),
        title: z.string().nullable(),
      }),
    ),
    next_after: z.string().nullable(),
  }),
  rest: { method: "GET", path: "/v1/collections/:collection/documents" },
  hints: { destructive: false, idempotent: true, openWorld: false },
  async handler(input, ctx) {
    const collection = input.collection ?? ctx.defaultCollection;
    const page = await ctx.collections.use(collection, (col) =>
      col.listDocuments({ prefix: input.prefix, after: input.after, limit: input.limit }),
    );
    return { collection, ...page };
  },
});
