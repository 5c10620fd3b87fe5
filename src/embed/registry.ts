/**
 * Embedding configuration (one zod-validated union, snake_case keys as in the
 * config file) and the factory that turns it into a provider.
 *
 * Every provider returns the same vectors for the same input: the local and
 * ONNX models are deterministic and batch-independent, and the HTTP providers
 * preserve input order.
 */
import { z } from "zod";
import { GroundkitError } from "../core/errors.js";
import type { EmbeddingProvider } from "./provider.js";
import { formatIssues } from "../core/validation.js";

const positiveInt = z.number().int().positive();
const envVarName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable NAME such as OPENAI_API_KEY, not a key");
const httpUrl = z
  .string()
  .refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), "must be an http(s) URL");

const httpCommon = {
  base_url: httpUrl,
  model: z.string().min(1),
  dimensions: positiveInt.optional(),
  query_prefix: z.string().optional(),
  document_prefix: z.string().optional(),
  batch_size: positiveInt.max(2048).optional(),
  concurrency: positiveInt.max(16).optional(),
  timeout_ms: positiveInt.optional(),
  max_attempts: positiveInt.max(10).optional(),
  /** Loopback, private and CGNAT endpoints are refused unless this is true. */
  allow_private_network: z.boolean().optional(),
};

/** `{provider: "local"}`: the bundled all-MiniLM-L6-v2 (384-d), offline. */
export const LocalEmbeddingConfigSchema = z
  .object({
    provider: z.literal("local"),
    batch_size: positiveInt.max(256).optional(),
    threads: positiveInt.max(16).optional(),
    /** How a chunk longer than the model's 256-token window is embedded. */
    window: z.enum(["first", "mean", "max"]).optional(),
    max_windows: positiveInt.max(64).optional(),
  })
  .strict();

/**
 * `{provider: "use-lite"}`: the Universal Sentence Encoder Lite (512-d), the
 * `local` model before 0.2; kept so collections embedded with it still work.
 */
export const UseLiteEmbeddingConfigSchema = z
  .object({
    provider: z.literal("use-lite"),
    batch_size: positiveInt.max(256).optional(),
    threads: positiveInt.max(16).optional(),
  })
  .strict();

/** `{provider: "onnx", model_dir}`: a sentence-transformers ONNX export on disk. */
export const OnnxEmbeddingConfigSchema = z
  .object({
    provider: z.literal("onnx"),
    model_dir: z.string().min(1),
    pooling: z.enum(["mean", "cls"]).optional(),
    normalize: z.boolean().optional(),
    query_prefix: z.string().optional(),
    document_prefix: z.string().optional(),
    max_length: z.number().int().min(2).optional(),
    batch_size: positiveInt.max(1024).optional(),
  })
  .strict();

/** `{provider: "ollama", base_url, model}`: Ollama's /api/embed. */
export const OllamaEmbeddingConfigSchema = z
  .object({ provider: z.literal("ollama"), ...httpCommon, truncate: z.boolean().optional() })
  .strict();

/** `{provider: "openai", base_url, model}`: any OpenAI-compatible /v1/embeddings. */
export const OpenAIEmbeddingConfigSchema = z
  .object({ provider: z.literal("openai"), ...httpCommon, api_key_env: envVarName.optional() })
  .strict();

/** The embedding configuration union, discriminated by `provider`. */
export const EmbeddingConfigSchema = z.discriminatedUnion("provider", [
  LocalEmbeddingConfigSchema,
  UseLiteEmbeddingConfigSchema,
  OnnxEmbeddingConfigSchema,
  OllamaEmbeddingConfigSchema,
  OpenAIEmbeddingConfigSchema,
]);

/** A validated embedding configuration. */
export type EmbeddingConfig = z.infer<typeof EmbeddingConfigSchema>;

/** The default for `--dense`. */
export const DEFAULT_EMBEDDING_CONFIG: EmbeddingConfig = { provider: "local" };


/**
 * Validate an embedding configuration from a file or flags.
 *
 * @throws GroundkitError INVALID_CONFIG listing every problem
 * @example
 *   parseEmbeddingConfig({ provider: "ollama", base_url: "http://127.0.0.1:11434", model: "nomic-embed-text",
 *     allow_private_network: true });
 */
export function parseEmbeddingConfig(input: unknown): EmbeddingConfig {
  const parsed = EmbeddingConfigSchema.safeParse(input);
  if (!parsed.success) {
    throw new GroundkitError("INVALID_CONFIG", `Invalid embedding configuration: ${formatIssues(parsed.error)}.`);
  }
  return parsed.data;
}

/**
 * Create the provider a configuration describes. Providers are imported on
 * demand so that, e.g., BM25-only use never loads transformers.js.
 *
 * @throws GroundkitError INVALID_CONFIG for an invalid configuration
 * @example
 *   const provider = await createEmbeddingProvider({ provider: "local" });
 *   provider.identity.dimensions; // 384
 */
export async function createEmbeddingProvider(config: EmbeddingConfig): Promise<EmbeddingProvider> {
  const c = parseEmbeddingConfig(config);
  switch (c.provider) {
    case "local": {
      const { createMiniLMProvider } = await import("./minilm/provider.js");
      return createMiniLMProvider(c);
    }
    case "use-lite": {
      const { createLocalProvider } = await import("./local.js");
      return createLocalProvider(c);
    }
    case "onnx": {
      const { createOnnxProvider } = await import("./onnx.js");
      return createOnnxProvider(c);
    }
    case "ollama": {
      const { createOllamaProvider } = await import("./ollama.js");
      return createOllamaProvider(c);
    }
    case "openai": {
      const { createOpenAIProvider } = await import("./openai.js");
      return createOpenAIProvider(c);
    }
  }
}
