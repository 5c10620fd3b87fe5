/**
 * `delete_document` / `DELETE /v1/collections/{c}/documents/{id}` (mutating):
 * remove one document with its chunks and snapshot. Offered only with a shared secret.
 */
import { z } from "zod";
import { GroundkitError } from "../../core/errors.js";
import { defineTool } from "../tool-definition.js";
import { CollectionArg } from "./schemas.js";

export const deleteDocumentTool = defineTool({
  name: "delete_document",
  title: "Delete a document",
  description: "Delete one document and its chunks from a collection.",
  kind: "mutating",
  input: z.strictObject({
    document_id: z.string().min(1).max(200),
    collection: CollectionArg.optional(),
  }),
  output: z.looseObject({ collection: z.string(), document_id: z.string(), deleted: z.literal(true) }),
  rest: { method: "DELETE", path: "/v1/collections/:collection/documents/:document_id" },
  hints: { destructive: true, idempotent: true, openWorld: false },
  async handler(input, ctx) {
    const collection = input.collection ?? ctx.defaultCollection;
    const deleted = await ctx.collections.use(collection, (col) =>
      col.deleteDocument(input.document_id, { lockTimeoutMs: ctx.lockTimeoutMs }),
    );
    if (!deleted) {
      throw new GroundkitError("DOCUMENT_NOT_FOUND", `No document ${input.document_id} in collection '${collection}'.`);
    }
    return { collection, document_id: input.document_id, deleted: true as const };
  },
});
