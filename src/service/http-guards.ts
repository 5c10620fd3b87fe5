/**
 * The promises the HTTP server makes before any handler runs: a request id on
 * every response, Host and Origin checked against an allow-list (DNS
 * rebinding, cross-site browser requests), bounded concurrency answering 503
 * with Retry-After, a per-request deadline answering 504, and an access log on
 * stderr that never carries query text. Bearer tokens are compared in constant
 * time. Body size is capped by the server's bodyLimit (413).
 */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { GroundkitError } from "../core/errors.js";
import type { Logger } from "../obs/logger.js";

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reuse a well-formed incoming X-Request-ID (so a proxy's id follows the request), else mint one. */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && INCOMING_ID.test(given) ? given : randomUUID();
}

/** Whether a host (as given to --host) is a loopback address. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * The Host header values a server accepts: the loopback names, the bind host
 * (unless it is a wildcard) and any extra names, all with the listening port.
 *
 * @example
 *   allowedHostValues("127.0.0.1", 8765, []) // Set { "127.0.0.1:8765", "localhost:8765", "[::1]:8765" }
 */
export function allowedHostValues(bindHost: string, port: number, extra: string[]): Set<string> {
  const names = new Set(["127.0.0.1", "localhost", "[::1]"]);
  const bind = bindHost.toLowerCase();
  if (bind !== "0.0.0.0" && bind !== "::" && bind !== "[::]") names.add(bind.includes(":") && !bind.startsWith("[") ? `[${bind}]` : bind);
  const out = new Set<string>();
  for (const name of names) {
    out.add(`${name}:${port}`);
    if (port === 80) out.add(name);
  }
  for (const e of extra) {
    const v = e.toLowerCase();
    const hasPort = /:\d+$/.test(v) && (!v.includes("]") || v.lastIndexOf(":") > v.indexOf("]"));
    out.add(hasPort ? v : `${v}:${port}`);
    if (!hasPort && port === 80) out.add(v);
  }
  return out;
}

/** Whether an Origin header names one of the allowed hosts (http or https). */
export function originAllowed(origin: string, hosts: Set<string>): boolean {
  const m = /^(https?):\/\/([^/]+)$/i.exec(origin);
  return m !== null && hosts.has(m[2]!.toLowerCase());
}

/**
 * Compare a request's `Authorization: Bearer` value with the secret in
 * constant time (digests, so the length does not leak either).
 */
export function bearerMatches(header: string | undefined, secret: string): boolean {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  const given = createHash("sha256").update(m?.[1] ?? "").digest();
  const expected = createHash("sha256").update(secret).digest();
  return timingSafeEqual(given, expected) && m !== null;
}

/** Configuration of {@link installGuards}. */
export interface GuardOptions {
  /** Accepted Host values; read per request (the port is known only after listen). */
  allowedHosts: () => Set<string>;
  /** Requests in flight beyond this get 503 + Retry-After. */
  maxConcurrency: number;
  /** Deadline for a request, body included (504 after it). */
  requestTimeoutMs: number;
  /** Deadline for long-running routes (ingest). */
  longRequestTimeoutMs: number;
  isLongRunning: (req: FastifyRequest) => boolean;
  /** Probes that bypass the concurrency bound (health checks must answer when saturated). */
  isProbe: (req: FastifyRequest) => boolean;
  log: Logger;
  /** Extra fields for the request's access-log line (tool, transport, trace id). */
  describe?: ((req: FastifyRequest) => Record<string, unknown>) | undefined;
  /** Told every finished request (metrics); `route` is the matched pattern, never the raw URL. */
  onFinished?: ((req: FastifyRequest, status: number, seconds: number) => void) | undefined;
  /** Told each request refused because the server is at capacity. */
  onShed?: (() => void) | undefined;
  /** Send an error envelope (used for refusals and deadlines). */
  sendError: (req: FastifyRequest, reply: FastifyReply, err: unknown) => void;
}

/** Register the guards as the first onRequest hook. */
export function installGuards(app: FastifyInstance, opts: GuardOptions): { inFlight: () => number } {
  let inFlight = 0;
  app.addHook("onRequest", async (req, reply) => {
    const started = performance.now();
    reply.raw.setHeader("X-Request-ID", req.id);
    const probe = opts.isProbe(req);
    // Filled in below; the close handler may run after an early refusal, before either is set.
    const held: { slot: boolean; timer?: NodeJS.Timeout } = { slot: false };
    reply.raw.once("close", () => {
      if (held.timer) clearTimeout(held.timer);
      if (held.slot) inFlight--;
      const elapsed = performance.now() - started;
      opts.log.info("request", {
        request_id: req.id,
        method: req.method,
        path: (req.url.split("?")[0] ?? "").slice(0, 300),
        status: reply.raw.statusCode,
        duration_ms: Math.round(elapsed),
        ...opts.describe?.(req),
      });
      opts.onFinished?.(req, reply.raw.statusCode, elapsed / 1000);
    });

    const host = req.headers.host?.toLowerCase();
    if (!host || !opts.allowedHosts().has(host)) {
      return refuse(req, reply, opts, new GroundkitError("FORBIDDEN", "The Host header is not one this server answers to."));
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, opts.allowedHosts())) {
      return refuse(req, reply, opts, new GroundkitError("FORBIDDEN", "Cross-origin requests are not allowed."));
    }
    if (!probe) {
      if (inFlight >= opts.maxConcurrency) {
        opts.onShed?.();
        reply.header("Retry-After", "1");
        return refuse(req, reply, opts, new GroundkitError("OVERLOADED", "The server is at capacity; retry shortly."));
      }
      inFlight++;
      held.slot = true;
    }
    const deadline = opts.isLongRunning(req) ? opts.longRequestTimeoutMs : opts.requestTimeoutMs;
    held.timer = setTimeout(() => {
      if (reply.raw.headersSent) return;
      // The body may still be arriving: the connection cannot be reused.
      reply.raw.setHeader("Connection", "close");
      opts.sendError(req, reply, new GroundkitError("TIMEOUT", `The request did not complete within ${deadline} ms.`));
    }, deadline);
    held.timer.unref();
  });
  return { inFlight: () => inFlight };
}

function refuse(req: FastifyRequest, reply: FastifyReply, opts: GuardOptions, err: GroundkitError): FastifyReply {
  opts.sendError(req, reply, err);
  return reply;
}
