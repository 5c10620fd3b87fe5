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
import { PathScrubber, toErrorEnvelope } from "./errors-to-http.js";
import { allowedHostValues, bearerMatches, installGuards, requestIdFor } from "./http-guards.js";
import { createMcpServer, SERVER_VERSION } from "./mcp-server.js";
import { buildOpenApi, jsonSchemaOf } from "./openapi.js";
import type { ServiceContext } from "./service-context.js";
import { runTool, toolsFor, type ToolDefinition } from "./tool-registry.js";

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
  /** Requests in flight before answering 503 (default 256). */
  maxConcurrency?: number | undefined;
  log?: Logger | undefined;
}

/** A listening server. */
export interface RunningServer {
  app: FastifyInstance;
  host: string;
  port: number;
  /** Base URL using the loopback name the server was bound to, e.g. `http://127.0.0.1:8765`. */
  url: string;
  close(): Promise<void>;
}

const JSON_TYPE = "application/json; charset=utf-8";

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
  installGuards(app, {
    allowedHosts: () => hosts,
    maxConcurrency: opts.maxConcurrency ?? 256,
    requestTimeoutMs: opts.requestTimeoutMs ?? 30_000,
    longRequestTimeoutMs: opts.longRequestTimeoutMs ?? 600_000,
    isLongRunning: (req) => longPaths.has(`${req.method} ${req.routeOptions.url ?? ""}`),
    isProbe: (req) => req.routeOptions.url === "/healthz" || req.routeOptions.url === "/readyz",
    log,
    sendError,
  });

  // A wrong token is refused everywhere; a missing one only where a mutating tool needs it.
  app.addHook("preHandler", async (req, reply) => {
    if (token !== undefined && req.headers.authorization !== undefined && !bearerMatches(req.headers.authorization, token)) {
      sendError(req, reply, new GroundkitError("UNAUTHORIZED", "The bearer token is not valid."));
      return reply;
    }
  });

  app.setErrorHandler((err, req, reply) => sendError(req, reply, err));
  app.setNotFoundHandler((req, reply) =>
    sendError(req, reply, new GroundkitError("ROUTE_NOT_FOUND", `No route ${req.method} ${req.url.split("?")[0]}.`)),
  );

  for (const tool of tools) registerRoute(app, tool, ctx, token);

  const openapi = buildOpenApi(tools, SERVER_VERSION);
  app.get("/openapi.json", async (_req, reply) => reply.type(JSON_TYPE).send(openapi));
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_req, reply) => {
    // No index dir yet is fine (nothing ingested); one that cannot be read is not.
    const store = ctx.collections.storeReady();
    const ready = !closing && indexDirUsable(ctx.collections.indexDir) && store.ok;
    return reply.code(ready ? 200 : 503).send({
      status: ready ? "ready" : "unavailable",
      store: { kind: ctx.collections.storeKind, ok: store.ok, ...(store.ok ? {} : { reason: store.reason }) },
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
    const server = createMcpServer(ctx, { mutating: authed, log, scrubber, requestId: req.id });
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
  try {
    await app.listen({ host, port: wanted });
  } catch (err) {
    await app.close();
    if ((err as { code?: unknown }).code === "EADDRINUSE") {
      throw new GroundkitError("PORT_IN_USE", `Port ${wanted} on ${host} is already in use.`, { host, port: wanted }, { cause: err });
    }
    throw err;
  }
  const port = (app.server.address() as AddressInfo).port;
  hosts = allowedHostValues(host, port, opts.allowedHosts ?? []);
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return {
    app,
    host,
    port,
    url: `http://${urlHost}:${port}`,
    close: async () => {
      closing = true;
      await app.close();
      ctx.collections.closeAll();
    },
  };
}

/** One registry entry as a route: input from the body (POST) or query string, plus path parameters. */
function registerRoute(app: FastifyInstance, tool: ToolDefinition, ctx: ServiceContext, token: string | undefined): void {
  const queryTypes = propertyTypes(tool);
  app.route({
    method: tool.rest.method,
    url: tool.rest.path,
    handler: async (req, reply) => {
      if (tool.kind === "mutating" && (token === undefined || !bearerMatches(req.headers.authorization, token))) {
        throw new GroundkitError("UNAUTHORIZED", `${tool.name} needs a bearer token.`);
      }
      const fromBody = tool.rest.method === "POST" ? req.body : coerceQuery(req.query as Record<string, unknown>, queryTypes);
      if (fromBody !== undefined && (typeof fromBody !== "object" || fromBody === null || Array.isArray(fromBody))) {
        throw new GroundkitError("INVALID_ARGUMENT", "The request body must be a JSON object.");
      }
      const input = { ...(fromBody as Record<string, unknown> | undefined), ...(req.params as Record<string, string>) };
      const output = await runTool(tool, input, ctx);
      if (reply.sent) return reply;
      return reply.type(JSON_TYPE).send(output);
    },
  });
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
