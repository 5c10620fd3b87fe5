/**
 * OpenAI-compatible embeddings (OpenAI, vLLM, LM Studio, llama.cpp server,
 * TEI's OpenAI route…): `POST …/v1/embeddings` with `{model, input}` answered
 * by `{data: [{index, embedding}]}`.
 *
 * The API key is read from the environment variable NAMED in the config
 * (`api_key_env`), sent as `Authorization: Bearer …`, and otherwise kept in a
 * closure: it is not part of the identity, the config, any log line or any
 * error message.
 */
import { GroundkitError } from "../core/errors.js";
import { apiUrl, postJsonWithRetry, readApiKey, scrubSecret, type HttpProviderOptions } from "../net/http-retry.js";
import { createBatchedProvider, type EmbeddingProvider } from "./provider.js";

/** Options for {@link createOpenAIProvider}. */
export interface OpenAIProviderOptions extends HttpProviderOptions {
  /**
   * API root. `https://api.openai.com` and `https://api.openai.com/v1` both
   * work: `/v1/embeddings` is appended, or just `/embeddings` when the base
   * already ends in `/v1`.
   */
  base_url: string;
  model: string;
  /** Name of the environment variable holding the API key; omit for servers without auth. */
  api_key_env?: string;
  /**
   * Requested width, sent as the API's `dimensions` parameter (models that
   * support shortening); when omitted the width is learned from one probe request.
   */
  dimensions?: number;
  /** Texts per request. Default 64. */
  batch_size?: number;
  /** Where to read `api_key_env` from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** The embeddings endpoint for a base URL (see {@link OpenAIProviderOptions.base_url}). */
export function openAIEmbeddingsUrl(baseUrl: string): string {
  const endsWithV1 = /\/v1\/*$/.test(new URL(apiUrl(baseUrl, "")).pathname);
  return apiUrl(baseUrl, endsWithV1 ? "embeddings" : "v1/embeddings");
}

/** Parse `{data: [{index, embedding}]}` into embeddings ordered by index. */
function orderedEmbeddings(json: unknown, count: number, source: string): unknown[] {
  const data = (json as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) {
    throw new GroundkitError("EMBEDDING_FAILED", `${source} answered without a "data" array.`, { source });
  }
  if (data.length !== count) {
    throw new GroundkitError("EMBEDDING_FAILED", `${source} returned ${data.length} embeddings for ${count} inputs.`, {
      source,
    });
  }
  const out = new Array<unknown>(count);
  const seen = new Set<number>();
  for (const item of data) {
    const index = (item as { index?: unknown } | null)?.index;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count || seen.has(index)) {
      throw new GroundkitError("EMBEDDING_FAILED", `${source} returned a missing, repeated or out-of-range index.`, {
        source,
      });
    }
    seen.add(index);
    const embedding = (item as { embedding?: unknown }).embedding;
    if (typeof embedding === "string") {
      throw new GroundkitError("EMBEDDING_FAILED", `${source} returned base64 embeddings; floats were requested.`, {
        source,
      });
    }
    out[index] = embedding;
  }
  return out;
}

/**
 * Create an OpenAI-compatible embedding provider. Resolves once the width is
 * known (from `dimensions` or one probe request).
 *
 * @throws GroundkitError INVALID_CONFIG when `api_key_env` names an unset variable
 * @example
 *   const p = await createOpenAIProvider({ base_url: "https://api.openai.com/v1",
 *     model: "text-embedding-3-small", api_key_env: "OPENAI_API_KEY" });
 */
export async function createOpenAIProvider(opts: OpenAIProviderOptions): Promise<EmbeddingProvider> {
  const url = openAIEmbeddingsUrl(opts.base_url);
  const apiKey = readApiKey(opts.api_key_env, opts.env ?? process.env);
  const source = `OpenAI-compatible model ${JSON.stringify(opts.model)}`;
  const headers: Record<string, string> = apiKey !== undefined ? { authorization: `Bearer ${apiKey}` } : {};

  const embedRaw = async (texts: string[]): Promise<unknown[]> => {
    try {
      const json = await postJsonWithRetry(
        url,
        {
          model: opts.model,
          input: texts,
          encoding_format: "float",
          ...(opts.dimensions !== undefined ? { dimensions: opts.dimensions } : {}),
        },
        {
          service: "OpenAI-compatible embeddings",
          failureCode: "EMBEDDING_FAILED",
          headers,
          allowPrivateNetwork: opts.allow_private_network ?? false,
          ...(opts.timeout_ms !== undefined ? { timeoutMs: opts.timeout_ms } : {}),
          retry: { ...opts.retry, ...(opts.max_attempts !== undefined ? { maxAttempts: opts.max_attempts } : {}) },
          ...(opts.resolver !== undefined ? { resolver: opts.resolver } : {}),
        },
      );
      return orderedEmbeddings(json, texts.length, source);
    } catch (err) {
      throw scrubSecret(err, apiKey);
    }
  };

  try {
    return await createBatchedProvider({
      provider: "openai",
      model: opts.model,
      ...(opts.dimensions !== undefined ? { dimensions: opts.dimensions } : {}),
      query_prefix: opts.query_prefix ?? "",
      document_prefix: opts.document_prefix ?? "",
      batchSize: opts.batch_size ?? 64,
      concurrency: opts.concurrency ?? 2,
      source,
      embedRaw,
    });
  } catch (err) {
    throw scrubSecret(err, apiKey);
  }
}
