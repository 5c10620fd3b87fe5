/**
 * Chat provider configuration (the config file's `chat` section, snake_case
 * as for embeddings): which OpenAI-compatible or Ollama server writes answers,
 * and how hard to try. The API key is named by an environment variable, never
 * given: it stays out of the config, the report and every message.
 */
import { z } from "zod";
import { GroundkitError } from "../core/errors.js";
import { formatIssues } from "../core/validation.js";

const positiveInt = z.number().int().positive();
const envVarName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable NAME such as OPENAI_API_KEY, not a key");
const httpUrl = z.string().refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), "must be an http(s) URL");

/** Default prompt budget in (estimated) tokens: fits every current chat model's context with room for the answer. */
export const DEFAULT_MAX_PROMPT_TOKENS = 6000;

const common = {
  base_url: httpUrl,
  model: z.string().min(1).max(256),
  /** Per-request deadline in ms (a whole streamed answer included). Default 120000. */
  timeout_ms: positiveInt.max(3_600_000).optional(),
  /** Attempts per request, first included. Default 4. */
  max_attempts: positiveInt.max(10).optional(),
  /** Loopback, private and CGNAT endpoints are refused unless this is true. */
  allow_private_network: z.boolean().optional(),
  /** Budget for the prompt (system text, question and passages), estimated at 4 code points per token. */
  max_prompt_tokens: positiveInt.min(256).max(1_000_000).optional(),
  /** Largest answer asked of the model, in tokens. Default 1024. */
  max_answer_tokens: positiveInt.max(100_000).optional(),
  /** Sampling temperature. Default 0 (the most repeatable answer). */
  temperature: z.number().min(0).max(2).optional(),
  /** Replace secrets with typed placeholders before sending anything (default true; see docs/answers.md). */
  redact: z.boolean().optional(),
};

/** `{provider: "openai", base_url, model}`: any OpenAI-compatible `/v1/chat/completions`. */
export const OpenAIChatConfigSchema = z.object({ provider: z.literal("openai"), ...common, api_key_env: envVarName.optional() }).strict();

/** `{provider: "ollama", base_url, model}`: Ollama's `/api/chat`. */
export const OllamaChatConfigSchema = z.object({ provider: z.literal("ollama"), ...common }).strict();

export const ChatConfigSchema = z.discriminatedUnion("provider", [OpenAIChatConfigSchema, OllamaChatConfigSchema]);

/** A validated chat configuration. */
export type ChatConfig = z.infer<typeof ChatConfigSchema>;

/** The provider names, for flags and messages. */
export const CHAT_PROVIDERS = ["openai", "ollama"] as const;

/**
 * Validate a chat configuration from a file or flags.
 *
 * @throws GroundkitError INVALID_CONFIG listing every problem
 * @example
 *   parseChatConfig({ provider: "ollama", base_url: "http://127.0.0.1:11434", model: "llama3.2", allow_private_network: true });
 */
export function parseChatConfig(input: unknown): ChatConfig {
  const parsed = ChatConfigSchema.safeParse(input);
  if (!parsed.success) {
    throw new GroundkitError("INVALID_CONFIG", `Invalid chat configuration: ${formatIssues(parsed.error)}.`);
  }
  return parsed.data;
}
