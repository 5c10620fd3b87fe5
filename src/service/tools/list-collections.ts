/** `list_collections` / `GET /v1/collections`: what this server can search. */
import { z } from "zod";
import { toGroundkitError } from "../../core/errors.js";
import { defineTool } from "../tool-definition.js";

export const listCollectionsTool = defineTool({
  name: "list_collections",
  title: "List collections",
  description: "The collections, with their document and chunk counts.",
  kind: "read",
  input: z.strictObject({}),
  output: z.looseObject({
    collections: z.array(
      z.looseObject({
        name: z.string(),
        documents: z.number().int().nullable(),
        chunks: z.number().int().nullable(),
        last_ingest_at: z.string().nullable(),
        error: z.string().optional().describe("Error code when the collection file cannot be opened."),
      }),
    ),
  }),
  rest: { method: "GET", path: "/v1/collections" },
  hints: { destructive: false, idempotent: true, openWorld: false },
  async handler(_input, ctx) {
    const collections = [];
    for (const name of await ctx.collections.names()) {
      try {
        const s = await ctx.collections.use(name, (col) => col.status());
        collections.push({ name, documents: s.documents, chunks: s.chunks, last_ingest_at: s.last_ingest_at });
      } catch (err) {
        // One unreadable file (foreign, newer, invalid name) must not hide the others.
        collections.push({ name, documents: null, chunks: null, last_ingest_at: null, error: toGroundkitError(err).code });
      }
    }
    return { collections };
  },
});
