/**
 * A remote cross-encoder behind a rerank endpoint, through the SSRF guard
 * with retries:
 * - `tei` (Hugging Face text-embeddings-inference): `POST <base>/rerank`
 *   `{query, texts}` -> `[{index, score}]`;
 * - `cohere` (Cohere and compatible servers such as Jina, vLLM, Infinity):
 *   `POST <base>/v1/rerank` `{model, query, documents, top_n}` ->
 *   `{results: [{index, relevance_score}]}`.
 * Both already return 0..1 scores; `scores: "logit"` applies the sigmoid for
 * servers that return raw logits. The API key is read from the environment
 * variable named in `api_key_env` and never appears in messages.
 */
import { GroundkitError } from "../../core/errors.js";
import {
  apiUrl,
  postJsonWithRetry,
  readApiKey,
  scrubSecret,
  type RetryPolicy,
} from "../../net/http-retry.js";
import type { Resolver } from "../../net/ssrf-guard.js";
import { redactUrl, sanitizeUrl } from "../../net/url-shape.js";
import { checkScores, sigmoid, type Reranker } from "./reranker.js";

/** Options for {@link createHttpReranker}. */
export interface HttpRerankerOptions {
  style: "tei" | "cohere";
  /** Server root; for `cohere`, a base ending in `/v1` gets `/rerank`, otherwise `/v1/rerank`. */
  base_url: string;
  /** Model name; required by Cohere-style servers, ignored by TEI. */
  model?: string;
  api_key_env?: string;
  /** How the server's numbers are to be read. Default "probability" (already 0..1). */
  scores?: "probability" | "logit";
  /** Passages per request. Default 32 (TEI's default client batch limit). */
  batch_size?: number;
  /** Per-request deadline in ms. Default 60000. */
  timeout_ms?: number;
  /** Attempts per request, first included. Default 4. */
  max_attempts?: number;
  allow_private_network?: boolean;
  retry?: RetryPolicy;
  resolver?: Resolver;
  /** Where to read `api_key_env` from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** The rerank endpoint for a style and base URL. */
export function rerankUrl(style: "tei" | "cohere", baseUrl: string): string {
  if (style === "tei") return apiUrl(baseUrl, "rerank");
  const endsWithVersion = /\/v\d+\/*$/.test(new URL(apiUrl(baseUrl, "")).pathname);
  return apiUrl(baseUrl, endsWithVersion ? "rerank" : "v1/rerank");
}

/** Read `[{index, score}]` or `{results: [{index, relevance_score}]}` into scores by index. */
function scoresByIndex(json: unknown, style: "tei" | "cohere", count: number, source: string): unknown[] {
  const items = style === "tei" ? json : (json as { results?: unknown } | null)?.results;
  if (!Array.isArray(items)) {
    throw new GroundkitError(
      "RERANK_FAILED",
      `${source} answered without ${style === "tei" ? "a JSON array" : 'a "results" array'}.`,
      { source },
    );
  }
  const out = new Array<unknown>(count);
  const seen = new Set<number>();
  for (const item of items) {
    const index = (item as { index?: unknown } | null)?.index;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count || seen.has(index)) {
      throw new GroundkitError("RERANK_FAILED", `${source} returned a repeated or out-of-range index.`, { source });
    }
    seen.add(index);
    out[index] = style === "tei" ? (item as { score?: unknown }).score : (item as { relevance_score?: unknown }).relevance_score;
  }
  if (seen.size !== count) {
    throw new GroundkitError("RERANK_FAILED", `${source} scored ${seen.size} of ${count} passages.`, { source });
  }
  return out;
}

/**
 * Create an HTTP reranker.
 *
 * @throws GroundkitError INVALID_CONFIG (no model for cohere, unset api_key_env variable, bad batch_size)
 * @example
 *   const r = createHttpReranker({ style: "tei", base_url: "http://127.0.0.1:8080", allow_private_network: true });
 */
export function createHttpReranker(opts: HttpRerankerOptions): Reranker {
  const url = rerankUrl(opts.style, opts.base_url);
  if (opts.style === "cohere" && (opts.model === undefined || opts.model === "")) {
    throw new GroundkitError("INVALID_CONFIG", "A cohere-style reranker needs a model name.");
  }
  const batchSize = opts.batch_size ?? 32;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new GroundkitError("INVALID_CONFIG", `batch_size must be a positive integer, got ${batchSize}.`);
  }
  const apiKey = readApiKey(opts.api_key_env, opts.env ?? process.env);
  const headers: Record<string, string> = apiKey !== undefined ? { authorization: `Bearer ${apiKey}` } : {};
  const service = opts.style === "tei" ? "TEI rerank" : "Cohere-style rerank";
  const source = `${service} at ${redactUrl(url)}`;
  const identity =
    opts.style === "tei" ? `tei:${sanitizeUrl(url)}` : `cohere:${opts.model ?? ""}@${sanitizeUrl(url)}`;
  const asLogits = opts.scores === "logit";

  const call = async (query: string, passages: string[]): Promise<number[]> => {
    const body =
      opts.style === "tei"
        ? { query, texts: passages, raw_scores: asLogits, return_text: false, truncate: true }
        : { model: opts.model, query, documents: passages, top_n: passages.length };
    const json = await postJsonWithRetry(url, body, {
      service,
      failureCode: "RERANK_FAILED",
      headers,
      allowPrivateNetwork: opts.allow_private_network ?? false,
      ...(opts.timeout_ms !== undefined ? { timeoutMs: opts.timeout_ms } : {}),
      retry: { ...opts.retry, ...(opts.max_attempts !== undefined ? { maxAttempts: opts.max_attempts } : {}) },
      ...(opts.resolver !== undefined ? { resolver: opts.resolver } : {}),
    });
    let raw = scoresByIndex(json, opts.style, passages.length, source);
    if (asLogits) {
      raw = raw.map((x) => (typeof x === "number" && Number.isFinite(x) ? sigmoid(x) : x));
    }
    return checkScores(raw, passages.length, source);
  };

  return {
    identity,
    async rerank(query, passages) {
      const scores: number[] = [];
      try {
        for (let i = 0; i < passages.length; i += batchSize) {
          scores.push(...(await call(query, passages.slice(i, i + batchSize))));
        }
      } catch (err) {
        throw scrubSecret(err, apiKey);
      }
      return scores;
    },
  };
}
