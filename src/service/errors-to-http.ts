/**
 * The error boundary of both surfaces: any thrown value becomes a typed
 * `{error: {code, message, hint}, request_id}` with the catalogue's HTTP status
 * and the hint written for tool callers (argument names, not shell commands).
 * Never a stack trace (logged to stderr instead, under the request id), never a
 * filesystem path outside the corpus (the index directory and other server-side
 * paths are replaced), never a secret (no message is built from one).
 */
import { isAbsolute } from "node:path";
import { isWithin } from "../core/containment.js";
import { ERROR_CATALOGUE, GroundkitError, toGroundkitError, type ErrorCode } from "../core/errors.js";
import type { Logger } from "../obs/logger.js";

/** The JSON body of every error response. */
export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; hint: string };
  request_id: string;
}

/**
 * Replaces server-side paths in messages: the index directory becomes
 * `<index-dir>`, any other absolute path not under a public root becomes `<path>`.
 *
 * @example
 *   new PathScrubber("/srv/idx", ["/srv/docs"]).scrub("/srv/idx/a.sqlite3 is not an index") // "<index-dir>/a.sqlite3 is not an index"
 */
export class PathScrubber {
  constructor(
    private readonly indexDir: string,
    /** Corpus roots whose paths clients may see (allowed roots, base dir). */
    private readonly publicRoots: () => string[],
  ) {}

  scrub(message: string): string {
    const withIndex = this.indexDir ? message.split(this.indexDir).join("<index-dir>") : message;
    // An absolute path starts at a "/" not preceded by a word char, ':' or '/' (so URLs are left alone).
    return withIndex.replace(/(?<![\w:/.<>-])\/[^\s'"`<>]*/g, (match) => {
      const path = match.replace(/[.,;:)\]]+$/, "");
      const tail = match.slice(path.length);
      if (path === "/" || !isAbsolute(path)) return match;
      return this.publicRoots().some((root) => isWithin(path, root)) ? match : `<path>${tail}`;
    });
  }
}

/** Where an error is being reported from. */
export interface ErrorScope {
  requestId: string;
  scrubber: PathScrubber;
  log: Logger;
}

/**
 * Normalize any thrown value into an HTTP status and envelope. INTERNAL errors
 * carry a generic message; their details go to the log.
 */
export function toErrorEnvelope(err: unknown, scope: ErrorScope): { status: number; body: ErrorEnvelope } {
  const gk = normalize(err);
  let message: string;
  if (gk.code === "INTERNAL") {
    scope.log.error("internal error", {
      request_id: scope.requestId,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    message = `Internal error; the server log has the details under request id ${scope.requestId}.`;
  } else {
    message = scope.scrubber.scrub(gk.message);
  }
  return {
    status: ERROR_CATALOGUE[gk.code].http,
    body: { error: { code: gk.code, message, hint: gk.hintFor("tool") }, request_id: scope.requestId },
  };
}

/** Fastify's own errors (body parsing, limits) carry `code: FST_...` and a statusCode. */
function normalize(err: unknown): GroundkitError {
  if (err instanceof GroundkitError) return err;
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown } | null;
  const status = typeof e?.statusCode === "number" ? e.statusCode : undefined;
  if (typeof e?.code === "string" && e.code.startsWith("FST_") && status !== undefined && status < 500) {
    if (status === 413) return new GroundkitError("PAYLOAD_TOO_LARGE", "The request body exceeds the server's limit.");
    if (status === 415) {
      return new GroundkitError("UNSUPPORTED_MEDIA_TYPE", "The request body's content type is not supported.");
    }
    return new GroundkitError("INVALID_ARGUMENT", `Malformed request: ${String(e.message)}`);
  }
  if (err instanceof SyntaxError && status === 400) {
    return new GroundkitError("INVALID_ARGUMENT", "The request body is not valid JSON.");
  }
  return toGroundkitError(err);
}
