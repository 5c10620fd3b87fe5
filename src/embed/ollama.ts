/**
 * Ollama embeddings: `POST <base_url>/api/embed` with `{model, input: string[]}`
 * answered by `{embeddings: number[][]}`. Loopback and private servers (the
 * usual place for Ollama) are reached only with `allow_private_network: true`.
 */
import { GroundkitError } from "../core/errors.js";
import { apiUrl, postJsonWithRetry, type HttpProviderOptions } from "../net/http-retry.js";
import { createBatchedProvider, type EmbeddingProvider } from "./provider.js";

/** Options for {@link createOllamaProvider}. */
export interface OllamaProviderOptions extends HttpProviderOptions {
  /** Server root, e.g. `http://127.0.0.1:11434`. */
  base_url: string;
  /** Model name as Ollama knows it, e.g. `nomic-embed-text`. (Batch size default: 32.) */
  model: string;
  /** Let the server truncate inputs longer than the model's context (Ollama's default). Default true. */
  truncate?: boolean;
}

/**
 * Create an Ollama embedding provider. Resolves once the width is known
 * (from `dimensions` or one probe request).
 *
 * @example
 *   const p = await createOllamaProvider({ base_url: "http://127.0.0.1:11434", model: "nomic-embed-text",
 *     allow_private_network: true, query_prefix: "search_query: ", document_prefix: "search_document: " });
 */
export async function createOllamaProvider(opts: OllamaProviderOptions): Promise<EmbeddingProvider> {
  const url = apiUrl(opts.base_url, "api/embed");
  const source = `Ollama model ${JSON.stringify(opts.model)}`;
  const embedRaw = async (texts: string[]): Promise<unknown[]> => {
    const json = await postJsonWithRetry(
      url,
      { model: opts.model, input: texts, truncate: opts.truncate ?? true },
      {
        service: "Ollama",
        failureCode: "EMBEDDING_FAILED",
        allowPrivateNetwork: opts.allow_private_network ?? false,
        ...(opts.timeout_ms !== undefined ? { timeoutMs: opts.timeout_ms } : {}),
        retry: { ...opts.retry, ...(opts.max_attempts !== undefined ? { maxAttempts: opts.max_attempts } : {}) },
        ...(opts.resolver !== undefined ? { resolver: opts.resolver } : {}),
      },
    );
    const embeddings = (json as { embeddings?: unknown } | null)?.embeddings;
    if (!Array.isArray(embeddings)) {
      throw new GroundkitError("EMBEDDING_FAILED", `${source} answered without an "embeddings" array.`, { source });
    }
    return embeddings;
  };
  return createBatchedProvider({
    provider: "ollama",
    model: opts.model,
    ...(opts.dimensions !== undefined ? { dimensions: opts.dimensions } : {}),
    query_prefix: opts.query_prefix ?? "",
    document_prefix: opts.document_prefix ?? "",
    batchSize: opts.batch_size ?? 32,
    concurrency: opts.concurrency ?? 2,
    source,
    embedRaw,
  });
}
