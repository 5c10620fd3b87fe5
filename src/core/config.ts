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

/** Where collections live: SQLite files in the index dir (the default), or a PostgreSQL server (docs/postgres.md). */
const StoreSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("sqlite") }).strict(),
  z
    .object({
      kind: z.literal("postgres"),
      /** The environment variable holding the connection URL; the URL (and so the password) is never in this file. */
      url_env: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name")
        .optional(),
      /** Collection NAME lives in the PostgreSQL schema `<schema>.NAME`. */
      schema: z
        .string()
        .regex(/^[a-z_][a-z0-9_]{0,29}$/, "must be 1-30 lowercase letters, digits or '_', not starting with a digit")
        .optional(),
      pool_max: z.number().int().min(2).max(100).optional(),
      statement_timeout_ms: z.number().int().min(100).max(3_600_000).optional(),
      sslmode: z.enum(["disable", "require", "verify-ca", "verify-full"]).optional(),
      /** Read replicas (streaming standbys), each by the environment variable holding its URL: reads go there, writes to url_env's server. */
      replicas: z
        .array(z.object({ url_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name") }).strict())
        .max(16)
        .optional(),
    })
    .strict(),
]);

export type StoreConfig = z.infer<typeof StoreSchema>;

const ConfigFileSchema = z
  .object({
    store: StoreSchema.optional(),
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
