/**
 * `document_history` / `GET /v1/collections/{c}/history`: a document's versions kept in the collection's
 * history, or the text of one (docs/decisions/0031-document-history.md).
 */
import { z } from "zod";
import { DOCUMENT_CHARS } from "../../cite/read-document.js";
import { defineTool } from "../tool-definition.js";
import { CollectionArg } from "./schemas.js";

export const documentHistoryTool = defineTool({
  name: "document_history",
  title: "Document history",
  description: "A document's kept versions (0 = current); with `version`, its text.",
  kind: "read",
  input: z.strictObject({
    document: z.string().min(1).max(4096).describe("document_id or source."),
    version: z.string().min(1).max(40).optional().describe("Number or ingested_at."),
    collection: CollectionArg.optional(),
    // Undescribed, as get_document's: the same bound with the same default.
    max_chars: z.number().int().min(1).max(DOCUMENT_CHARS.max).optional(),
  }),
  output: z.looseObject({
    collection: z.string(),
    document_id: z.string(),
    source: z.string(),
    versions: z.array(
      z.looseObject({ version: z.number().int(), source: z.string(), ingested_at: z.string(), status: z.string(), chars: z.number().int() }),
    ),
    text: z
      .looseObject({ version: z.number().int(), ingested_at: z.string(), text: z.string(), truncated: z.boolean(), exact: z.boolean() })
      .optional(),
  }),
  rest: { method: "GET", path: "/v1/collections/:collection/history" },
  hints: { destructive: false, idempotent: true, openWorld: false },
  async handler(input, ctx) {
    const collection = input.collection ?? ctx.defaultCollection;
    return ctx.collections.use(collection, async (col) => {
      const history = await col.history(input.document);
      if (input.version === undefined) return { collection, ...history };
      const v = await col.readVersion(input.document, input.version);
      const cps = Array.from(v.text);
      const max = input.max_chars ?? DOCUMENT_CHARS.default;
      const text = { version: v.version, ingested_at: v.ingested_at, text: cps.slice(0, max).join(""), truncated: cps.length > max, exact: v.exact };
      return { collection, ...history, text };
    });
  },
});
