/**
 * The promises the HTTP server makes before any handler runs: a request id on
 * every response, Host and Origin checked against an allow-list (DNS
 * rebinding, cross-site browser requests), bounded concurrency answering 503
 * with Retry-After, a per-request deadline answering 504, and an access log on
 * stderr that never carries query text. Bearer tokens are compared in constant
 * time. Body size is capped by the server's bodyLimit (413).
 *
 * Slow clients cannot hold the server (issue 25 #11): a request whose body
 * is still arriving holds no concurrency slot (it takes one once the body is
 * in, so every slot stays for requests ready to run), its body must keep
 * arriving at a minimum rate (408 BODY_TOO_SLOW otherwise), and one client
 * address may hold only so many connections.
 */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Socket } from "node:net";
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
  /** Slowest a request body may arrive, averaged from the request's start, in bytes per second. */
  minBodyBytesPerSecond: number;
  /** Time a body may take before its rate is checked (a client's first round trips), in ms. */
  bodyGraceMs: number;
}

/** How often a body's arrival rate is checked. */
const BODY_CHECK_MS = 500;

/** Register the guards as the first onRequest hook. */
export function installGuards(app: FastifyInstance, opts: GuardOptions): { inFlight: () => number; receivingBody: () => number } {
  let inFlight = 0;
  let receivingBody = 0;
  /** Requests that take their slot once their body is in (preHandler), and their state. */
  const deferred = new WeakMap<FastifyRequest, Held>();
  interface Held {
    slot: boolean;
    receiving: boolean;
    timer?: NodeJS.Timeout;
    bodyCheck?: NodeJS.Timeout;
  }
  const bodyArrived = (held: Held): void => {
    if (held.bodyCheck) clearInterval(held.bodyCheck);
    held.bodyCheck = undefined;
    if (held.receiving) receivingBody--;
    held.receiving = false;
  };
  /** Take a concurrency slot, or refuse with 503 when none is left. */
  const takeSlot = (req: FastifyRequest, reply: FastifyReply, held: Held): FastifyReply | undefined => {
    if (inFlight >= opts.maxConcurrency) {
      opts.onShed?.();
      reply.header("Retry-After", "1");
      return refuse(req, reply, opts, new GroundkitError("OVERLOADED", "The server is at capacity; retry shortly."));
    }
    inFlight++;
    held.slot = true;
    return undefined;
  };
  app.addHook("onRequest", async (req, reply) => {
    const started = performance.now();
    reply.raw.setHeader("X-Request-ID", req.id);
    const probe = opts.isProbe(req);
    // Filled in below; the close handler may run after an early refusal, before either is set.
    const held: Held = { slot: false, receiving: false };
    reply.raw.once("close", () => {
      if (held.timer) clearTimeout(held.timer);
      bodyArrived(held);
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
    const deadline = opts.isLongRunning(req) ? opts.longRequestTimeoutMs : opts.requestTimeoutMs;
    held.timer = setTimeout(() => {
      if (reply.raw.headersSent) return;
      // The body may still be arriving: the connection cannot be reused.
      reply.raw.setHeader("Connection", "close");
      opts.sendError(req, reply, new GroundkitError("TIMEOUT", `The request did not complete within ${deadline} ms.`));
    }, deadline);
    held.timer.unref();
    if (req.raw.complete || !hasBody(req)) return probe ? undefined : takeSlot(req, reply, held);
    // The body is still to come: waiting on the client must not take a slot from requests ready to run.
    if (!probe) deferred.set(req, held);
    held.receiving = true;
    receivingBody++;
    req.raw.once("end", () => bodyArrived(held));
    const socket = req.raw.socket;
    const readAtStart = socket.bytesRead;
    held.bodyCheck = setInterval(() => {
      const elapsed = performance.now() - started;
      if (elapsed < opts.bodyGraceMs || socket.bytesRead - readAtStart >= ((elapsed - opts.bodyGraceMs) / 1000) * opts.minBodyBytesPerSecond) return;
      bodyArrived(held);
      if (reply.raw.headersSent) return;
      // The rest of the body will not be read: the connection cannot be reused.
      reply.raw.setHeader("Connection", "close");
      opts.sendError(
        req,
        reply,
        new GroundkitError("BODY_TOO_SLOW", `The request body arrived slower than ${opts.minBodyBytesPerSecond} bytes per second.`),
      );
    }, BODY_CHECK_MS);
    held.bodyCheck.unref();
  });
  // The body is in (parsed): a request that deferred its slot takes it now.
  app.addHook("preHandler", async (req, reply) => {
    const held = deferred.get(req);
    if (held === undefined) return;
    deferred.delete(req);
    bodyArrived(held);
    return takeSlot(req, reply, held);
  });
  return { inFlight: () => inFlight, receivingBody: () => receivingBody };
}

/** Whether a request declares a body (a length above zero, or chunks). */
function hasBody(req: FastifyRequest): boolean {
  const length = req.headers["content-length"];
  return (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
}

/**
 * Close at once any connection beyond `max` open ones from the same client
 * address (loopback clients included: one address, one budget), so no single
 * client can hold every socket; `onRefused` is told each.
 */
export function limitConnectionsPerClient(server: Server, max: number, onRefused: () => void): void {
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "unknown";
    const count = open.get(address) ?? 0;
    if (count >= max) {
      onRefused();
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

function refuse(req: FastifyRequest, reply: FastifyReply, opts: GuardOptions, err: GroundkitError): FastifyReply {
  opts.sendError(req, reply, err);
  return reply;
}
