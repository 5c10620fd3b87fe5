/**
 * Configuration: defaults, overridden by a JSON config file, overridden by flags.
 * The file is `groundkit.config.json` in the working directory, or `--config FILE`.
 */
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { GroundkitError } from "./errors.js";
import { formatIssues } from "./validation.js";

/** Defaults (chunking chosen by measurement: docs/decisions/0002-chunking-defaults.md). */
export const DEFAULTS = {
  chunkSize: 2400,
  chunkOverlap: 200,
  maxFileSize: 10 * 1024 * 1024,
  indexDir: ".groundkit",
  collection: "default",
  /** How long a writer waits for another writer of the same collection (ingest, reembed, delete). */
  lockTimeoutMs: 30_000,
} as const;


const ConfigFileSchema = z
  .object({
    /** Where collections live (validated by the store layer: store/store-config.ts). */
    store: z.unknown().optional(),
    index_dir: z.string().min(1).optional(),
    collection: z.string().min(1).optional(),
    chunk_size: z.number().int().positive().optional(),
    chunk_overlap: z.number().int().min(0).optional(),
    max_file_size: z.number().int().positive().optional(),
    include: z.array(z.string()).optional(),
    exclude: z.array(z.string()).optional(),
    /** Embedding provider config (validated by the embed layer). */
    embedding: z.unknown().optional(),
    /** Chat model for `grk answer` (validated by the answer layer). */
    chat: z.unknown().optional(),
    /** Cross-encoder config (validated by the rerank layer). */
    rerank: z.unknown().optional(),
    /** Budgets for extracting one PDF or HTML file (extract/limits.ts). */
    extraction: z
      .object({
        timeout_ms: z.number().int().positive().optional(),
        max_memory_mb: z.number().int().positive().optional(),
        max_output_code_points: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    retrieval: z
      .object({
        dense_min_score: z.number().min(-1).max(1).optional(),
        rrf_k: z.number().positive().optional(),
        hybrid_weights: z.object({ lexical: z.number().min(0).optional(), dense: z.number().min(0).optional() }).strict().optional(),
        fusion: z.enum(["rrf", "convex"]).optional(),
        rrf_rank_bonus: z.boolean().optional(),
        convex_dense_weight: z.number().min(0).max(1).optional(),
        code_dense_weight: z.number().min(0).max(1).optional(),
        hybrid_pool: z.number().int().min(1).max(1000).optional(),
        rerank_depth: z.number().int().min(1).max(1000).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** Load the config file if one is named or present; `{}` otherwise. */
export function loadConfigFile(path?: string): ConfigFile {
  const file = path ?? (existsSync("groundkit.config.json") ? "groundkit.config.json" : undefined);
  if (!file) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new GroundkitError("INVALID_CONFIG", `Cannot read config file ${file}: ${(err as Error).message}`);
  }
  const parsed = ConfigFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new GroundkitError("INVALID_CONFIG", `Config file ${file}: ${formatIssues(parsed.error, { max: 3 })}`);
  }
  return parsed.data;
}
