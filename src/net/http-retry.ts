/**
 * Calling a JSON HTTP API (an embedding server, a reranker, a chat model) through the SSRF
 * guard with bounded retries: exponential backoff with jitter on 429, 5xx,
 * connection errors and timeouts; a server's Retry-After is honoured up to a
 * cap; every attempt has its own deadline.
 *
 * Error messages carry the redacted URL, the status and the attempt count,
 * never request headers (which hold API keys) and never response bodies
 * (which a server could use to echo them back).
 */
import { GroundkitError, type ErrorCode } from "../core/errors.js";
import { allowableWithPrivateNetwork, type AddressClass } from "./address-policy.js";
import { guardedFetch } from "./guarded-fetch.js";
import type { Resolver } from "./ssrf-guard.js";
import { redactUrl } from "./url-shape.js";

/** How hard to try. */
export interface RetryPolicy {
  /** Total attempts, first included. Default 4. */
  maxAttempts?: number;
  /** First backoff step in ms; doubles each retry. Default 250. */
  baseDelayMs?: number;
  /** Largest backoff step in ms. Default 8000. */
  maxDelayMs?: number;
  /**
   * Largest Retry-After the caller will wait, in ms. A server asking for
   * longer fails the call at once rather than stalling it. Default 60000.
   */
  maxRetryAfterMs?: number;
  /** Source of jitter in [0, 1); injectable for tests. */
  random?: () => number;
  /** How to wait; injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULTS = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The HTTP status recorded on a guardedFetch error, if any. */
function statusOf(err: unknown): number | undefined {
  const status = err instanceof GroundkitError ? err.detail?.["status"] : undefined;
  return typeof status === "number" ? status : undefined;
}

/**
 * Whether a failed attempt is worth repeating: 429, 5xx, a connection error
 * (no status) or a timeout. SSRF refusals, redirects, oversize bodies and
 * other 4xx are final.
 */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof GroundkitError)) return false;
  if (err.code === "FETCH_TIMEOUT") return true;
  if (err.code !== "FETCH_FAILED") return false;
  const status = statusOf(err);
  return status === undefined || status === 429 || status >= 500;
}

/**
 * Parse a Retry-After header value (delay-seconds or an HTTP date) into ms
 * from `now`; undefined when absent or unparseable.
 *
 * @example
 *   parseRetryAfter("2"); // 2000
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * The Retry-After a failed attempt carried, in ms. guardedFetch reports it in
 * its error detail as `retryAfter` (the raw header value).
 */
export function retryAfterOf(err: unknown, now = Date.now()): number | undefined {
  if (!(err instanceof GroundkitError)) return undefined;
  const raw = err.detail?.["retryAfter"];
  return typeof raw === "string" ? parseRetryAfter(raw, now) : undefined;
}

/** Backoff before retry number `retry` (1-based): half fixed, half random, capped. */
export function backoffDelay(retry: number, policy: RetryPolicy = {}): number {
  const base = policy.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const cap = policy.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const step = Math.min(cap, base * 2 ** (retry - 1));
  const random = policy.random ?? Math.random;
  return step / 2 + random() * (step / 2);
}

/** Why {@link withRetry} gave up: the last error and how many attempts were made. */
export class RetriesExhausted extends Error {
  constructor(
    readonly last: unknown,
    readonly attempts: number,
    readonly reason: "exhausted" | "final" | "retry-after-too-long",
  ) {
    super(last instanceof Error ? last.message : String(last), { cause: last });
    this.name = "RetriesExhausted";
  }
}

/**
 * Run `attempt` until it succeeds, a non-retryable error occurs, or the
 * attempts run out. Waits the server's Retry-After when given (never less
 * than the backoff), else exponential backoff with jitter.
 *
 * @throws RetriesExhausted wrapping the last error
 */
export async function withRetry<T>(attempt: (n: number) => Promise<T>, policy: RetryPolicy = {}): Promise<T> {
  const maxAttempts = policy.maxAttempts ?? DEFAULTS.maxAttempts;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new GroundkitError("INVALID_CONFIG", `max_attempts must be a positive integer, got ${maxAttempts}.`);
  }
  const maxRetryAfter = policy.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs;
  const sleep = policy.sleep ?? defaultSleep;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (!isRetryable(err)) throw new RetriesExhausted(err, n, "final");
      if (n >= maxAttempts) throw new RetriesExhausted(err, n, "exhausted");
      const retryAfter = retryAfterOf(err);
      if (retryAfter !== undefined && retryAfter > maxRetryAfter) {
        throw new RetriesExhausted(err, n, "retry-after-too-long");
      }
      await sleep(Math.max(retryAfter ?? 0, backoffDelay(n, policy)));
    }
  }
}

/** One JSON POST with retries. */
export interface JsonPostOptions {
  /** Who is called, for messages: "Ollama", "OpenAI-compatible embeddings", "TEI rerank". */
  service: string;
  /** Error code for a failure that is not an SSRF refusal. */
  failureCode: Extract<ErrorCode, "EMBEDDING_FAILED" | "RERANK_FAILED" | "GENERATION_FAILED">;
  /** Name of the config key that permits private addresses, for the SSRF message. */
  privateNetworkSetting?: string;
  allowPrivateNetwork?: boolean;
  headers?: Record<string, string>;
  /** Per-attempt deadline in ms. Default 60000. */
  timeoutMs?: number;
  /** Largest response accepted, bytes. Default 64 MiB. */
  maxBytes?: number;
  retry?: RetryPolicy;
  /** DNS resolver for the SSRF guard; tests only. */
  resolver?: Resolver;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

function describeFailure(err: unknown): string {
  if (err instanceof GroundkitError) {
    if (err.code === "FETCH_TIMEOUT") return "timed out";
    const status = statusOf(err);
    if (status !== undefined) return `HTTP ${status}`;
    if (err.code === "BODY_TOO_LARGE") return "the response was too large";
    if (err.code === "REDIRECT_REFUSED") return "the server answered with a redirect, which is not followed";
    if (err.code === "URL_REFUSED") return err.message;
    const errorCode = err.detail?.["errorCode"];
    return typeof errorCode === "string" ? `connection error ${errorCode}` : "connection error";
  }
  return "unexpected error";
}

/** Options of {@link postWithRetry}: a JSON POST whose answer may be a stream. */
export interface StreamingPostOptions extends JsonPostOptions {
  /** Accept header. Default application/json. */
  accept?: string;
  /**
   * Body chunks as they arrive. Once one has been delivered a failure is final,
   * never retried: the caller has already shown part of the answer.
   */
  onBodyChunk?: (chunk: Uint8Array) => void;
}

/** A failure after part of a streamed body was delivered: not retried. */
class StreamBroken extends Error {
  constructor(readonly original: unknown) {
    super("the response broke off after it began streaming", { cause: original });
  }
}

/**
 * POST `body` as JSON to `url` through guardedFetch, retrying per `opts.retry`,
 * and return the response body as text (a JSON document, or an SSE / NDJSON
 * stream whose chunks went to `opts.onBodyChunk` as they arrived).
 *
 * @throws GroundkitError SSRF_BLOCKED (private endpoint without permission), or
 *   `opts.failureCode` with the redacted URL, the last status and the attempts made
 */
export async function postWithRetry(url: string, body: unknown, opts: StreamingPostOptions): Promise<{ text: string; contentType: string }> {
  const safeUrl = redactUrl(url);
  const payload = JSON.stringify(body);
  let delivered = false;
  const onBodyChunk = opts.onBodyChunk;
  let response: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    response = await withRetry(async () => {
      try {
        return await guardedFetch(url, {
          method: "POST",
          headers: { ...opts.headers, "content-type": "application/json", accept: opts.accept ?? "application/json" },
          body: payload,
          allowPrivateNetwork: opts.allowPrivateNetwork ?? false,
          timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES,
          ...(opts.resolver !== undefined ? { resolver: opts.resolver } : {}),
          ...(onBodyChunk !== undefined
            ? {
                onBodyChunk: (chunk: Uint8Array) => {
                  delivered = true;
                  onBodyChunk(chunk);
                },
              }
            : {}),
        });
      } catch (err) {
        throw delivered && !(err instanceof GroundkitError && !isRetryable(err)) ? new StreamBroken(err) : err;
      }
    }, opts.retry);
  } catch (err) {
    if (!(err instanceof RetriesExhausted)) throw err;
    const broken = err.last instanceof StreamBroken;
    const last = err.last instanceof StreamBroken ? err.last.original : err.last;
    // The caller's own verdict on a streamed chunk (onBodyChunk threw) stands as it is.
    if (last instanceof GroundkitError && last.code === opts.failureCode) throw last;
    if (last instanceof GroundkitError && last.code === "SSRF_BLOCKED") {
      const cls = last.detail?.["addressClass"] as AddressClass | "unparseable" | undefined;
      if (cls !== undefined && (cls === "unparseable" || !allowableWithPrivateNetwork(cls))) {
        // Metadata, link-local, reserved…: no setting allows it, so the setting is not what to change.
        throw new GroundkitError("SSRF_BLOCKED", `The ${opts.service} endpoint ${safeUrl} is refused: ${last.message}`, { url: safeUrl }, {
          cause: last,
          hint: `Point the ${opts.service} endpoint at another host: this address is refused whatever allow_private_network says.`,
        });
      }
      const setting = opts.privateNetworkSetting ?? "allow_private_network: true";
      throw new GroundkitError(
        "SSRF_BLOCKED",
        `The ${opts.service} endpoint ${safeUrl} is a loopback, private or reserved address; set ${setting} in its configuration to allow it.`,
        { url: safeUrl },
        { cause: last },
      );
    }
    const status = statusOf(last);
    const why =
      err.reason === "retry-after-too-long"
        ? `${describeFailure(last)} with Retry-After ${String((last as GroundkitError).detail?.["retryAfter"])}, longer than this client waits`
        : describeFailure(last);
    const attempts = `${err.attempts} attempt${err.attempts === 1 ? "" : "s"}`;
    throw new GroundkitError(
      opts.failureCode,
      `${opts.service} request to ${safeUrl} failed after ${attempts}${broken ? " (the response broke off mid-stream)" : ""}: ${why}.`,
      { url: safeUrl, attempts: err.attempts, ...(status !== undefined ? { status } : {}) },
      { cause: last },
    );
  }
  return { text: Buffer.from(response.body).toString("utf8"), contentType: response.contentType };
}

/**
 * POST `body` as JSON to `url` through guardedFetch, retrying per `opts.retry`,
 * and return the parsed JSON response.
 *
 * @throws GroundkitError SSRF_BLOCKED (private endpoint without permission), or
 *   `opts.failureCode` with the redacted URL, the last status and the attempts made
 * @example
 *   const json = await postJsonWithRetry("http://127.0.0.1:11434/api/embed", { model, input },
 *     { service: "Ollama", failureCode: "EMBEDDING_FAILED", allowPrivateNetwork: true });
 */
export async function postJsonWithRetry(url: string, body: unknown, opts: JsonPostOptions): Promise<unknown> {
  const response = await postWithRetry(url, body, opts);
  try {
    return JSON.parse(response.text) as unknown;
  } catch {
    const safeUrl = redactUrl(url);
    throw new GroundkitError(opts.failureCode, `${opts.service} at ${safeUrl} answered with a body that is not JSON.`, {
      url: safeUrl,
      contentType: response.contentType,
    });
  }
}

/**
 * Join an API base URL and an endpoint path: `http://h:1/` + `api/embed` ->
 * `http://h:1/api/embed`; a base with a path keeps it (`http://h/proxy` +
 * `v1/x` -> `http://h/proxy/v1/x`). Query and fragment of the base are dropped.
 *
 * @throws GroundkitError INVALID_CONFIG when `base` is not an http(s) URL
 */
export function apiUrl(base: string, path: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new GroundkitError("INVALID_CONFIG", `base_url ${JSON.stringify(redactUrl(base))} is not a URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new GroundkitError("INVALID_CONFIG", `base_url must be an http(s) URL, got ${url.protocol}.`);
  }
  const prefix = url.pathname.replace(/\/+$/, "");
  url.pathname = `${prefix}/${path.replace(/^\/+/, "")}`;
  url.search = "";
  url.hash = "";
  return url.href;
}

/**
 * Read the API key from the environment variable NAMED by `api_key_env`
 * (undefined when no name is configured). The value is never echoed.
 *
 * @throws GroundkitError INVALID_CONFIG when the named variable is unset or empty
 */
export function readApiKey(name: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (name === undefined) return undefined;
  const value = env[name];
  if (value === undefined || value.trim() === "") {
    throw new GroundkitError(
      "INVALID_CONFIG",
      `The environment variable ${name} (named by api_key_env) is not set; export the API key in it.`,
      { api_key_env: name },
    );
  }
  return value.trim();
}

/**
 * Replace every occurrence of `secret` in an error's message with
 * `[REDACTED]` and return the error: a guard for a server that echoes a key.
 */
export function scrubSecret(err: unknown, secret: string | undefined): unknown {
  if (secret === undefined || secret === "" || !(err instanceof Error) || !err.message.includes(secret)) return err;
  err.message = err.message.split(secret).join("[REDACTED]");
  return err;
}

/** Options every HTTP embedding provider takes (per-provider options extend this). */
export interface HttpProviderOptions {
  /** Expected width; learned from one probe request when omitted. */
  dimensions?: number;
  query_prefix?: string;
  document_prefix?: string;
  /** Texts per request. */
  batch_size?: number;
  /** Requests in flight. Default 2. */
  concurrency?: number;
  /** Per-request deadline in ms. Default 60000. */
  timeout_ms?: number;
  /** Attempts per request, first included. Default 4. */
  max_attempts?: number;
  allow_private_network?: boolean;
  /** Backoff tuning beyond max_attempts; tests use it to avoid real waits. */
  retry?: RetryPolicy;
  resolver?: Resolver;
}
