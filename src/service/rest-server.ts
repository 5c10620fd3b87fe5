/**
 * `grk serve`: the registry rendered as REST routes (the tools' stable wire
 * names), MCP over Streamable HTTP at /mcp, health probes, the OpenAPI
 * document and the web page, all behind the guards of http-guards.ts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { GroundkitError } from "../core/errors.js";
import { createLogger, type Logger } from "../obs/logger.js";
import { ServerMetrics, type Transport } from "../obs/server-metrics.js";
import { PathScrubber, toErrorEnvelope } from "./errors-to-http.js";
import { allowedHostValues, bearerMatches, installGuards, limitConnectionsPerClient, requestIdFor } from "./http-guards.js";
import { createMcpServer, SERVER_VERSION } from "./mcp-server.js";
import { buildOpenApi, jsonSchemaOf } from "./openapi.js";
import type { ServiceContext } from "./service-context.js";
import { callTool, type ToolCallScope } from "./tool-telemetry.js";
import { toolsFor, type ToolDefinition } from "./tool-registry.js";

/** Configuration of {@link startRestServer}. */
export interface RestServerOptions {
  context: ServiceContext;
  /** Shared secret (GROUNDKIT_API_TOKEN): enables the mutating tools, required as a bearer token for them. */
  token?: string | undefined;
  /** Bind address (default 127.0.0.1). Non-loopback binds are the CLI's decision to allow. */
  host?: string | undefined;
  /** Port (default 8765; 0 picks a free one). */
  port?: number | undefined;
  /** Extra Host values to accept (names a proxy or a non-loopback bind is reached by). */
  allowedHosts?: string[] | undefined;
  /** Request body cap in bytes (default 256 KiB). */
  bodyLimit?: number | undefined;
  /** Deadline per request (default 30 s); ingest gets `longRequestTimeoutMs` (default 10 min). */
  requestTimeoutMs?: number | undefined;
  longRequestTimeoutMs?: number | undefined;
  /** Requests in flight before answering 503 (default 256); one still receiving its body takes its slot once the body is in. */
  maxConcurrency?: number | undefined;
  /** Connections one client address may hold open; more are closed at once (default 128). */
  maxConnectionsPerClient?: number | undefined;
  /** Slowest a request body may arrive once its first 2 s have passed, in bytes per second (default 1024; 408 below). */
  minBodyBytesPerSecond?: number | undefined;
  log?: Logger | undefined;
  /**
   * What GET /metrics answers (default: this server's own metrics). A worker of
   * `grk serve --workers N` asks its primary for the sum over the pool.
   */
  renderMetrics?: ((own: ServerMetrics) => Promise<{ contentType: string; body: string }>) | undefined;
  /**
   * A worker of `grk serve --workers N`: connections are accepted by the pool's
   * primary and handed in (`app.server.emit("connection")`), so this server
   * listens on nothing; `port` is the pool's.
   */
  handedConnections?: { port: number } | undefined;
}

/** A listening server. */
export interface RunningServer {
  app: FastifyInstance;
  host: string;
  port: number;
  /** Base URL using the loopback name the server was bound to, e.g. `http://127.0.0.1:8765`. */
  url: string;
  /** This server's metrics (GET /metrics renders them). */
  metrics: ServerMetrics;
  close(): Promise<void>;
}

const JSON_TYPE = "application/json; charset=utf-8";

/** A body's first 2 s are not rate-checked: a client's first round trips are not a rate. */
const BODY_GRACE_MS = 2_000;

/** What a request's tool call left for its access-log line. */
interface RequestNote {
  tool?: string;
  traceId?: string;
}

const transportOf = (req: FastifyRequest): Transport => (req.routeOptions.url === "/mcp" ? "mcp-http" : "rest");

/**
 * Build and start the server.
 *
 * @example
 *   const server = await startRestServer({ context: createServiceContext({ indexDir: ".groundkit" }), port: 0 });
 *   console.error(server.url);
 *   await server.close();
 */
export async function startRestServer(opts: RestServerOptions): Promise<RunningServer> {
  const host = opts.host ?? "127.0.0.1";
  const log = opts.log ?? createLogger();
  const ctx = opts.context;
  const token = opts.token ? opts.token : undefined;
  const tools = toolsFor({ mutating: token !== undefined });
  const scrubber = new PathScrubber(ctx.collections.indexDir, () => [...ctx.allowedRoots, ...(ctx.baseDir ? [ctx.baseDir] : [])]);
  let hosts = new Set<string>();
  let closing = false;
  const maxConcurrency = opts.maxConcurrency ?? 256;
  const notes = new WeakMap<FastifyRequest, RequestNote>();
  const noteOf = (req: FastifyRequest): RequestNote => {
    let note = notes.get(req);
    if (!note) notes.set(req, (note = {}));
    return note;
  };
  let inFlight = (): number => 0;
  let receivingBody = (): number => 0;
  const metrics = new ServerMetrics({
    openCollections: () => ctx.collections.openCount(),
    inFlight: () => inFlight(),
    receivingBody: () => receivingBody(),
    maxConcurrency,
  });

  const app = Fastify({
    logger: false,
    bodyLimit: opts.bodyLimit ?? 256 * 1024,
    genReqId: requestIdFor,
    requestIdHeader: false,
    return503OnClosing: true,
  });

  // JSON only: a text/plain body (what a cross-site form can send without a preflight) is 415.
  app.removeContentTypeParser("text/plain");

  const sendError = (req: FastifyRequest, reply: FastifyReply, err: unknown): void => {
    const { status, body } = toErrorEnvelope(err, { requestId: req.id, scrubber, log });
    metrics.error(body.error.code, transportOf(req));
    if (reply.raw.headersSent) return;
    if (reply.sent) {
      // A hijacked reply (/mcp) is written directly.
      reply.raw.writeHead(status, { "content-type": JSON_TYPE });
      reply.raw.end(JSON.stringify(body));
      return;
    }
    reply.code(status).type(JSON_TYPE).send(body);
  };

  const longPaths = new Set(tools.filter((t) => t.longRunning).map((t) => `${t.rest.method} ${t.rest.path}`));
  const guards = installGuards(app, {
    allowedHosts: () => hosts,
    maxConcurrency,
    requestTimeoutMs: opts.requestTimeoutMs ?? 30_000,
    longRequestTimeoutMs: opts.longRequestTimeoutMs ?? 600_000,
    isLongRunning: (req) => longPaths.has(`${req.method} ${req.routeOptions.url ?? ""}`),
    // A scrape must get through when the server is saturated: that is when it matters.
    isProbe: (req) => req.routeOptions.url === "/healthz" || req.routeOptions.url === "/readyz" || req.routeOptions.url === "/metrics",
    log,
    describe: (req) => {
      const note = notes.get(req);
      return {
        transport: transportOf(req),
        ...(note?.tool ? { tool: note.tool } : {}),
        ...(note?.traceId ? { trace_id: note.traceId } : {}),
      };
    },
    onFinished: (req, status, seconds) => metrics.httpRequest(req.method, req.routeOptions.url ?? "unmatched", status, seconds),
    onShed: () => metrics.shed(),
    sendError,
    minBodyBytesPerSecond: opts.minBodyBytesPerSecond ?? 1024,
    bodyGraceMs: BODY_GRACE_MS,
  });
  limitConnectionsPerClient(app.server, opts.maxConnectionsPerClient ?? 128, () => metrics.shed());
  inFlight = guards.inFlight;
  receivingBody = guards.receivingBody;

  // A wrong token is refused everywhere; a missing one only where a mutating tool needs it. Without a token
  // configured there is nothing to check (and no hook to run per request).
  if (token !== undefined) {
    app.addHook("preHandler", async (req, reply) => {
      if (req.headers.authorization !== undefined && !bearerMatches(req.headers.authorization, token)) {
        sendError(req, reply, new GroundkitError("UNAUTHORIZED", "The bearer token is not valid."));
        return reply;
      }
    });
  }

  app.setErrorHandler((err, req, reply) => sendError(req, reply, err));
  app.setNotFoundHandler((req, reply) =>
    sendError(req, reply, new GroundkitError("ROUTE_NOT_FOUND", `No route ${req.method} ${req.url.split("?")[0]}.`)),
  );

  const observe = { metrics, noteOf };
  const errorBody: ErrorBody = (req, err) => toErrorEnvelope(err, { requestId: req.id, scrubber, log }).body;
  for (const tool of tools) registerRoute(app, tool, ctx, token, observe, errorBody);
  // Without a token the mutating routes do nothing but say why, so a caller is not left with "No route".
  if (token === undefined) {
    for (const tool of toolsFor({ mutating: true }).filter((t) => t.kind === "mutating")) registerDisabledRoute(app, tool, observe);
  }

  // Behind the bearer token when one is set: counts by tool and error code describe how the server is used.
  app.get("/metrics", async (req, reply) => {
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      throw new GroundkitError("UNAUTHORIZED", "GET /metrics needs the bearer token when GROUNDKIT_API_TOKEN is set.");
    }
    const { contentType, body } = await (opts.renderMetrics ? opts.renderMetrics(metrics) : metrics.render());
    return reply.type(contentType).header("Cache-Control", "no-store").send(body);
  });

  const openapi = buildOpenApi(tools, SERVER_VERSION);
  app.get("/openapi.json", async (_req, reply) => reply.type(JSON_TYPE).send(openapi));
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_req, reply) => {
    // No index dir yet is fine (nothing ingested); one that cannot be read is not.
    const store = await ctx.collections.storeReady();
    const ready = !closing && indexDirUsable(ctx.collections.indexDir) && store.ok;
    return reply.code(ready ? 200 : 503).send({
      status: ready ? "ready" : "unavailable",
      store: {
        kind: ctx.collections.storeKind,
        ok: store.ok,
        ...(store.ok ? {} : { reason: store.reason }),
        // How far behind its primary each read replica is; a replica that is down does not make the server unready.
        ...(store.replicas ? { replicas: store.replicas } : {}),
      },
    });
  });

  const page = loadWebPage();
  app.get("/", async (_req, reply) =>
    reply
      .type("text/html; charset=utf-8")
      .header(
        "Content-Security-Policy",
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      )
      .header("X-Content-Type-Options", "nosniff")
      .header("Referrer-Policy", "no-referrer")
      .send(page),
  );

  app.post("/mcp", async (req, reply) => {
    const authed = token !== undefined && bearerMatches(req.headers.authorization, token);
    const note = noteOf(req);
    const server = createMcpServer(ctx, {
      ...callerOf(req, reply),
      mutating: authed,
      log,
      scrubber,
      requestId: req.id,
      transport: "mcp-http",
      metrics,
      headers: req.headers,
      onToolCall: (tool, traceId) => {
        note.tool = tool;
        if (traceId) note.traceId = traceId;
      },
    });
    // Stateless: one server and transport per request, plain JSON responses.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.once("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    reply.hijack();
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });
  const noStream = async (_req: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header("Allow", "POST")
      .type(JSON_TYPE)
      .send({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this server is stateless; POST only." }, id: null });
  app.get("/mcp", noStream);
  app.delete("/mcp", noStream);

  const wanted = opts.port ?? 8765;
  let port: number;
  if (opts.handedConnections) {
    await app.ready();
    port = opts.handedConnections.port;
  } else {
    try {
      await app.listen({ host, port: wanted });
    } catch (err) {
      await app.close();
      if ((err as { code?: unknown }).code === "EADDRINUSE") {
        throw new GroundkitError("PORT_IN_USE", `Port ${wanted} on ${host} is already in use.`, { host, port: wanted }, { cause: err });
      }
      throw err;
    }
    port = (app.server.address() as AddressInfo).port;
  }
  hosts = allowedHostValues(host, port, opts.allowedHosts ?? []);
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return {
    app,
    host,
    port,
    url: `http://${urlHost}:${port}`,
    metrics,
    close: async () => {
      closing = true;
      await app.close();
      await ctx.collections.closeAll();
    },
  };
}

/** Turns a failure into the JSON error body every route answers with. */
type ErrorBody = (req: FastifyRequest, err: unknown) => unknown;

/** Whether the client asked for Server-Sent Events. */
function wantsEvents(req: FastifyRequest): boolean {
  return /\btext\/event-stream\b/i.test(req.headers.accept ?? "");
}

/**
 * Run a streaming tool as Server-Sent Events: each emitted event as it
 * happens, then `result` with the tool's output, or `error` with the usual
 * error body (the status is already 200 once the stream has begun).
 */
async function streamTool(
  req: FastifyRequest,
  reply: FastifyReply,
  tool: ToolDefinition,
  input: unknown,
  ctx: ServiceContext,
  scope: ToolCallScope,
  errorBody: ErrorBody,
): Promise<void> {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "x-request-id": req.id,
  });
  const send = (event: string, data: unknown): void => {
    if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  try {
    send("result", await callTool(tool, input, ctx, { ...scope, emit: send }));
  } catch (err) {
    send("error", errorBody(req, err));
  } finally {
    res.end();
  }
}

/** One registry entry as a route: input from the body (POST) or query string, plus path parameters. */
/** What a route records about its request: the metrics, and the access log's note. */
interface RouteObservers {
  metrics: ServerMetrics;
  noteOf: (req: FastifyRequest) => RequestNote;
}

function registerRoute(
  app: FastifyInstance,
  tool: ToolDefinition,
  ctx: ServiceContext,
  token: string | undefined,
  observe: RouteObservers,
  errorBody: ErrorBody,
): void {
  const queryTypes = propertyTypes(tool);
  app.route({
    method: tool.rest.method,
    url: tool.rest.path,
    handler: async (req, reply) => {
      const note = observe.noteOf(req);
      note.tool = tool.name;
      if (tool.kind === "mutating" && (token === undefined || !bearerMatches(req.headers.authorization, token))) {
        throw new GroundkitError("UNAUTHORIZED", `${tool.name} needs a bearer token.`);
      }
      const fromBody = tool.rest.method === "POST" ? req.body : coerceQuery(req.query as Record<string, unknown>, queryTypes);
      if (fromBody !== undefined && (typeof fromBody !== "object" || fromBody === null || Array.isArray(fromBody))) {
        throw new GroundkitError("INVALID_ARGUMENT", "The request body must be a JSON object.");
      }
      const input = { ...(fromBody as Record<string, unknown> | undefined), ...(req.params as Record<string, string>) };
      const scope: ToolCallScope = {
        transport: "rest",
        requestId: req.id,
        metrics: observe.metrics,
        headers: req.headers,
        onTrace: (traceId) => (note.traceId = traceId),
        ...callerOf(req, reply),
      };
      if (tool.streams && wantsEvents(req)) {
        // Arguments are checked before the stream starts, so a bad request still gets its 4xx.
        const parsed = tool.input.safeParse(input);
        if (parsed.success) return streamTool(req, reply, tool, input, ctx, scope, errorBody);
      }
      const output = await callTool(tool, input, ctx, scope);
      if (reply.sent) return reply;
      return reply.type(JSON_TYPE).send(output);
    },
  });
}

/** A mutating tool's route on a server without a token: always refused, before any input is read. */
function registerDisabledRoute(app: FastifyInstance, tool: ToolDefinition, observe: RouteObservers): void {
  app.route({
    method: tool.rest.method,
    url: tool.rest.path,
    handler: async (req) => {
      observe.noteOf(req).tool = tool.name;
      throw new GroundkitError("MUTATION_DISABLED", `${tool.name} is disabled: the server has no GROUNDKIT_API_TOKEN set.`);
    },
  });
}

/**
 * Who a request is for and a signal that aborts once its response is closed:
 * answered (the deadline's 504 included) or the connection gone. Work still
 * queued for it after that is wasted, so it is dropped (core/request-scope.ts).
 */
function callerOf(req: FastifyRequest, reply: FastifyReply): { client: string; signal: AbortSignal } {
  const gone = new AbortController();
  reply.raw.once("close", () => gone.abort());
  return { client: req.socket.remoteAddress ?? "unknown", signal: gone.signal };
}

/** JSON Schema types of a tool's fields, to read typed values from a query string. */
function propertyTypes(tool: ToolDefinition): Record<string, string> {
  const props = jsonSchemaOf(tool.input, "input").properties ?? {};
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, String((v as { type?: unknown }).type ?? "")]));
}

/** Query strings carry text: numbers, booleans and lists are converted by the field's declared type. */
function coerceQuery(query: Record<string, unknown>, types: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query ?? {})) {
    const type = types[key];
    if (typeof value !== "string") out[key] = value;
    else if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(value)) out[key] = Number(value);
    else if (type === "boolean" && (value === "true" || value === "false")) out[key] = value === "true";
    else if (type === "array") out[key] = [value];
    else out[key] = value;
  }
  return out;
}

function indexDirUsable(dir: string): boolean {
  if (!existsSync(dir)) return true;
  try {
    readdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

/** The web page beside this module (the build copies src/service/web into dist/service/web). */
function loadWebPage(): string {
  return readFileSync(new URL("./web/index.html", import.meta.url), "utf8");
}
