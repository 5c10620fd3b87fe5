/**
 * Reranker configuration (a zod-validated union, snake_case keys as in the
 * config file) and the factory that turns it into a {@link Reranker}.
 */
import { z } from "zod";
import { GroundkitError } from "../../core/errors.js";
import { formatIssues } from "../../core/validation.js";
import type { Reranker } from "./reranker.js";

const positiveInt = z.number().int().positive();

/** `{provider: "onnx", model_dir}`: a local cross-encoder directory. */
export const OnnxRerankerConfigSchema = z
  .object({
    provider: z.literal("onnx"),
    model_dir: z.string().min(1),
    max_length: z.number().int().min(2).optional(),
    batch_size: positiveInt.max(1024).optional(),
  })
  .strict();

/** `{provider: "http", style, base_url}`: a TEI or Cohere-style /rerank endpoint. */
export const HttpRerankerConfigSchema = z
  .object({
    provider: z.literal("http"),
    style: z.enum(["tei", "cohere"]),
    base_url: z.string().refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), "must be an http(s) URL"),
    model: z.string().min(1).optional(),
    api_key_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable NAME, not a key")
      .optional(),
    scores: z.enum(["probability", "logit"]).optional(),
    batch_size: positiveInt.max(1024).optional(),
    timeout_ms: positiveInt.optional(),
    max_attempts: positiveInt.max(10).optional(),
    allow_private_network: z.boolean().optional(),
  })
  .strict()
  .refine((c) => c.style !== "cohere" || c.model !== undefined, {
    message: "a cohere-style reranker needs a model",
    path: ["model"],
  });

/** The reranker configuration union. */
export const RerankerConfigSchema = z.union([OnnxRerankerConfigSchema, HttpRerankerConfigSchema]);

/** A validated reranker configuration. */
export type RerankerConfig = z.infer<typeof RerankerConfigSchema>;

/**
 * Validate a reranker configuration.
 *
 * @throws GroundkitError INVALID_CONFIG listing every problem
 */
export function parseRerankerConfig(input: unknown): RerankerConfig {
  const parsed = RerankerConfigSchema.safeParse(input);
  if (!parsed.success) {
    throw new GroundkitError("INVALID_CONFIG", `Invalid reranker configuration: ${formatIssues(parsed.error)}.`);
  }
  return parsed.data;
}

/**
 * Create the reranker a configuration describes (ONNX support is imported on demand).
 *
 * @example
 *   const r = await createReranker({ provider: "http", style: "tei", base_url: "http://127.0.0.1:8080",
 *     allow_private_network: true });
 */
export async function createReranker(config: RerankerConfig): Promise<Reranker> {
  const c = parseRerankerConfig(config);
  if (c.provider === "onnx") {
    const { createOnnxReranker } = await import("./onnx-reranker.js");
    return createOnnxReranker(c);
  }
  const { createHttpReranker } = await import("./http-reranker.js");
  return createHttpReranker(c);
}
