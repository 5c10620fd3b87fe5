/**
 * Guarded fetch: one HTTP(S) request to a vetted, pinned address, with no
 * redirects, a body cap and a total deadline. Used for URL ingestion and for
 * embedding-provider calls.
 */
import { isIP } from "node:net";
// undici is imported when a URL is fetched: a command that fetches nothing never loads it.
import type { buildConnector, Client } from "undici";
import { GroundkitError } from "../core/errors.js";
import { checkUrlShape, redactUrl, sanitizeUrl } from "./url-shape.js";
import { vetHost, type ResolvedAddress, type Resolver } from "./ssrf-guard.js";

/** Options for {@link guardedFetch}. */
export interface GuardedFetchOptions {
  /** Allow loopback, private and CGNAT destinations. Default false. */
  allowPrivateNetwork?: boolean;
  /** Largest body accepted, in bytes; larger bodies are refused, not truncated. Default 10 MiB. */
  maxBytes?: number;
  /** Total deadline in ms for resolve + connect + headers + body. Default 30000. */
  timeoutMs?: number;
  /** DNS resolver; defaults to the system resolver. */
  resolver?: Resolver;
  /** Default GET. */
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /**
   * Called with each body chunk of a 2xx response as it arrives (the body is
   * still capped and returned whole): lets a streaming API's tokens be shown
   * before the response ends.
   */
  onBodyChunk?: (chunk: Uint8Array) => void;
}

/** A fetched response. */
export interface FetchedResource {
  /** The requested URL, sanitized (no userinfo, credential values redacted, no fragment). */
  url: string;
  status: number;
  /** Lowercased media type without parameters; "" when the server sent no Content-Type. */
  contentType: string;
  /** Lowercased `charset` parameter of Content-Type, if any. */
  charset: string | undefined;
  body: Uint8Array;
}

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;

/** Parse `text/html; charset="UTF-8"` into its lowercased media type and charset. */
function parseContentType(header: string | undefined): { contentType: string; charset: string | undefined } {
  if (header === undefined) return { contentType: "", charset: undefined };
  const [type = "", ...params] = header.split(";");
  let charset: string | undefined;
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== "charset") continue;
    const value = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .trim()
      .toLowerCase();
    if (value !== "") charset = value;
    break;
  }
  return { contentType: type.trim().toLowerCase(), charset };
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Location target for the error message, resolved and redacted; never requested. */
function describeLocation(location: string | undefined, base: URL): string {
  if (location === undefined) return "no Location";
  try {
    return redactUrl(new URL(location, base).href);
  } catch {
    return "<invalid url>";
  }
}

/**
 * A connector that always dials the vetted address: undici's own connector
 * with the hostname swapped for the pinned IP, so no DNS query happens after
 * vetting. The Host header comes from the request origin, and TLS keeps the
 * original name for SNI and certificate verification.
 */
function pinnedConnector(
  build: typeof buildConnector,
  pinned: ResolvedAddress,
  hostname: string,
  timeoutMs: number,
): buildConnector.connector {
  const base = build({ timeout: timeoutMs });
  const servername = isIP(hostname) === 0 ? hostname : undefined;
  return (options, callback) => {
    base({ ...options, hostname: pinned.address, ...(servername !== undefined ? { servername } : {}) }, callback);
  };
}

/** Caller headers plus `accept-encoding: identity` unless the caller set one: compressed bodies are not decoded. */
function requestHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = { ...headers };
  if (!Object.keys(out).some((name) => name.toLowerCase() === "accept-encoding")) out["accept-encoding"] = "identity";
  return out;
}

/** Stop reading a response body. Destroying emits an abort error nobody else listens for; swallow it. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on("error", () => undefined);
  body.destroy();
}

/** Reject with `onAbort()` if the signal fires before `promise` settles. */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const listener = (): void => reject(onAbort());
    signal.addEventListener("abort", listener, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", listener);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", listener);
        reject(err);
      },
    );
  });
}

/**
 * Fetch one http(s) URL safely: the URL shape is checked (no credentials),
 * the host is resolved once and every address vetted, and the connection goes
 * to the vetted address itself. Redirects are refused (the target is never
 * requested), non-2xx is an error, the body is capped and the whole exchange
 * runs under one deadline. Nothing here logs or reports the raw URL: messages
 * carry it with every query value redacted.
 *
 * @throws GroundkitError URL_REFUSED, SSRF_BLOCKED, REDIRECT_REFUSED, FETCH_FAILED, FETCH_TIMEOUT, BODY_TOO_LARGE
 * @example
 *   const page = await guardedFetch("https://example.com/docs", { maxBytes: 2 ** 20 });
 *   page.contentType; // "text/html"
 */
export async function guardedFetch(rawUrl: string, opts: GuardedFetchOptions = {}): Promise<FetchedResource> {
  const url = checkUrlShape(rawUrl);
  // For messages only; the resource keeps its query values (they tell pages apart).
  const safeUrl = redactUrl(rawUrl);
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const timeoutError = (): GroundkitError =>
    new GroundkitError("FETCH_TIMEOUT", `Fetching ${safeUrl} took longer than ${timeoutMs} ms.`, {
      url: safeUrl,
      timeoutMs,
    });
  const failed = (why: string, detail: Record<string, unknown> = {}, cause?: unknown): GroundkitError =>
    new GroundkitError("FETCH_FAILED", `Fetching ${safeUrl} failed: ${why}.`, { url: safeUrl, ...detail }, { cause });

  let client: Client | undefined;
  try {
    const pinned = await raceSignal(
      vetHost(url.hostname, { allowPrivateNetwork: opts.allowPrivateNetwork ?? false, resolver: opts.resolver }),
      controller.signal,
      timeoutError,
    );
    const undici = await import("undici");
    client = new undici.Client(url.origin, {
      connect: pinnedConnector(undici.buildConnector, pinned, url.hostname.replace(/^\[|\]$/g, ""), timeoutMs),
      // The total deadline below governs; these only back it up.
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });

    let response: Awaited<ReturnType<Client["request"]>>;
    try {
      response = await client.request({
        // The fragment is never sent.
        path: `${url.pathname}${url.search}`,
        method: opts.method ?? "GET",
        headers: requestHeaders(opts.headers),
        body: opts.body,
        signal: controller.signal,
      });
    } catch (err) {
      if (timedOut) throw timeoutError();
      const code = (err as { code?: unknown } | null)?.code;
      throw failed(
        typeof code === "string" ? `connection error ${code}` : "connection error",
        typeof code === "string" ? { errorCode: code } : {},
        err,
      );
    }

    const { statusCode, headers, body } = response;
    if (statusCode >= 300 && statusCode < 400) {
      discard(body);
      const target = describeLocation(headerValue(headers, "location"), url);
      throw new GroundkitError(
        "REDIRECT_REFUSED",
        `Fetching ${safeUrl} returned HTTP ${statusCode} redirecting to ${target}; redirects are not followed.`,
        { url: safeUrl, status: statusCode, location: target },
      );
    }
    if (statusCode < 200 || statusCode >= 300) {
      discard(body);
      // Retry-After travels in the detail so callers that retry (embedding providers) can honour it.
      const retryAfter = headerValue(headers, "retry-after");
      throw failed(`HTTP ${statusCode}`, { status: statusCode, ...(retryAfter !== undefined ? { retryAfter } : {}) });
    }

    const encoding = headerValue(headers, "content-encoding")?.trim().toLowerCase();
    if (encoding !== undefined && encoding !== "" && encoding !== "identity") {
      discard(body);
      throw failed(`unsupported Content-Encoding ${JSON.stringify(encoding)}`, { contentEncoding: encoding });
    }

    const tooLarge = (): GroundkitError =>
      new GroundkitError("BODY_TOO_LARGE", `The body of ${safeUrl} is larger than ${maxBytes} bytes.`, {
        url: safeUrl,
        maxBytes,
      });
    const declared = headerValue(headers, "content-length");
    if (declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > maxBytes) {
      discard(body);
      throw tooLarge();
    }

    const chunks: Buffer[] = [];
    let received = 0;
    try {
      for await (const chunk of body) {
        const buf = chunk as Buffer;
        received += buf.length;
        if (received > maxBytes) {
          discard(body);
          throw tooLarge();
        }
        chunks.push(buf);
        opts.onBodyChunk?.(buf);
      }
    } catch (err) {
      if (err instanceof GroundkitError) throw err;
      if (timedOut) throw timeoutError();
      const code = (err as { code?: unknown } | null)?.code;
      throw failed("the connection broke while reading the body", typeof code === "string" ? { errorCode: code } : {}, err);
    }

    const { contentType, charset } = parseContentType(headerValue(headers, "content-type"));
    const bytes = Buffer.concat(chunks, received);
    return {
      url: sanitizeUrl(rawUrl),
      status: statusCode,
      contentType,
      charset,
      body: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    };
  } finally {
    clearTimeout(timer);
    if (client !== undefined) await client.destroy().catch(() => undefined);
  }
}
