/** `index_status` / `GET /v1/collections/{c}`: counts by class, schema version, last ingest. */
import { z } from "zod";
import { defineTool } from "../tool-definition.js";
import { CollectionArg } from "./schemas.js";

export const indexStatusTool = defineTool({
  name: "index_status",
  title: "Collection status",
  description: "Describe a collection: counts, generation, last ingest, chunking, base directories, vector index, replica lag.",
  kind: "read",
  input: z.strictObject({ collection: CollectionArg.optional() }),
  output: z.looseObject({
    collection: z.string(),
    documents: z.number().int(),
    chunks: z.number().int(),
    documents_by_class: z.record(z.string(), z.number().int()),
    chunks_by_class: z.record(z.string(), z.number().int()),
    schema_version: z.number().int(),
    generation: z.number().int(),
    last_ingest_at: z.string().nullable(),
    base_dirs: z.array(z.string()),
    chunker: z.looseObject({ chunk_size: z.number().int(), chunk_overlap: z.number().int() }).nullable(),
    vector_index: z.looseObject({
      kind: z.enum(["hnsw", "exact"]),
      reason: z.string().nullable(),
      library: z.string().nullable(),
      state: z.enum(["current", "behind", "stale", "missing", "none"]),
      vectors: z.number().int(),
      indexed_vectors: z.number().int(),
      pending_changes: z.number().int(),
      file_bytes: z.number().int(),
    }),
    history: z
      .looseObject({
        versions: z.number().int(),
        documents: z.number().int(),
        blocks: z.number().int(),
        bytes: z.number().int(),
        oldest_ingested_at: z.string().nullable(),
        oldest_superseded_at: z.string().nullable(),
        retention: z.looseObject({ enabled: z.boolean(), versions: z.number().int(), max_age_days: z.number().int(), max_bytes: z.number().int() }),
      })
      .describe("Previous versions kept (document_history) and the retention bounding them."),
    replicas: z
      .array(
        z.looseObject({
          name: z.string(),
          target: z.string(),
          ok: z.boolean(),
          replay_lag_bytes: z.number().optional(),
          replay_lag_seconds: z.number().optional(),
          reason: z.string().optional(),
          passed_over: z.string().optional(),
        }),
      )
      .optional(),
  }),
  rest: { method: "GET", path: "/v1/collections/:collection" },
  hints: { destructive: false, idempotent: true, openWorld: false },
  async handler(input, ctx) {
    const collection = input.collection ?? ctx.defaultCollection;
    const status = await ctx.collections.use(collection, (col) => col.status({ replicaLag: true }));
    // The index file's own path is server-side detail, not part of the corpus.
    const { path: _path, ...rest } = status;
    return rest;
  },
});
