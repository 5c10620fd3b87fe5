/**
 * `GET /openapi.json`: an OpenAPI 3.1 document generated from the same zod
 * schemas the MCP tools advertise (zod's JSON Schema, draft 2020-12, the
 * dialect OpenAPI 3.1 uses), so the REST reference cannot drift from the code.
 */
import { z } from "zod";
import type { ToolDefinition } from "./tool-registry.js";

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

/** JSON Schema of a zod schema, as the request (`input`) or response (`output`) side sees it. */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io }) as JsonSchema;
  return rest;
}

/** `:name` segments of a REST path. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
}

const ERROR_STATUSES: Record<string, string> = {
  "400": "Invalid arguments (INVALID_ARGUMENT, QUERY_EMPTY, QUERY_TOO_LONG, INVALID_COLLECTION_NAME, INVALID_FILTER…).",
  "401": "Missing or wrong bearer token (UNAUTHORIZED).",
  "403": "Host or Origin not allowed (FORBIDDEN), or a path outside the allowed roots (PATH_ESCAPES_BASE).",
  "404": "Unknown collection, chunk, document or route.",
  "409": "The index is foreign or newer (STORE_FOREIGN, STORE_NEWER), or an embedding identity mismatch.",
  "408": "The request body arrived slower than the server's minimum rate (BODY_TOO_SLOW).",
  "413": "The request body exceeds the server's limit (PAYLOAD_TOO_LARGE).",
  "422": "A citation that is not a valid citation object (INVALID_CITATION).",
  "503": "The server is saturated (OVERLOADED; see Retry-After), the index is busy, or too many re-extractions wait for this client (EXTRACTION_BUSY).",
  "504": "The request exceeded the server's deadline (TIMEOUT).",
};

/**
 * Build the document for the tools a server offers.
 *
 * @example
 *   const doc = buildOpenApi(toolsFor({ mutating: false }), "0.1.0");
 */
export function buildOpenApi(tools: ToolDefinition[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const tool of tools) {
    const route = tool.rest.path.replace(/:([a-z_]+)/g, "{$1}");
    (paths[route] ??= {})[tool.rest.method.toLowerCase()] = operationFor(tool);
  }
  paths["/healthz"] = { get: probe("healthz", "Liveness: the process answers.") };
  paths["/readyz"] = { get: probe("readyz", "Readiness: the index directory is readable, the store answers (a bounded ping for PostgreSQL; `store` says which, and `store.replicas` how far behind its primary each read replica is, in bytes and seconds) and the server is not shutting down.") };
  paths["/mcp"] = {
    post: {
      operationId: "mcp",
      summary: "MCP over Streamable HTTP (stateless, JSON responses)",
      description: "The same tools as MCP tools. A valid bearer token adds the mutating tools, when the server has a secret.",
      requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
      responses: { "200": { description: "A JSON-RPC response." } },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "groundkit",
      version,
      description: "Search with citations that can be re-verified. Every response carries X-Request-ID.",
    },
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "GROUNDKIT_API_TOKEN" } },
      schemas: { Error: ERROR_SCHEMA },
      responses: Object.fromEntries(
        Object.entries(ERROR_STATUSES).map(([status, description]) => [
          `E${status}`,
          { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        ]),
      ),
    },
  };
}

function operationFor(tool: ToolDefinition): Record<string, unknown> {
  const input = jsonSchemaOf(tool.input, "input");
  const props = input.properties ?? {};
  const inPath = pathParams(tool.rest.path);
  const parameters: unknown[] = inPath.map((name) => ({ name, in: "path", required: true, schema: props[name] ?? { type: "string" } }));
  const rest = Object.fromEntries(Object.entries(props).filter(([name]) => !inPath.includes(name)));
  const required = (input.required ?? []).filter((name) => !inPath.includes(name));
  const op: Record<string, unknown> = {
    operationId: tool.name,
    summary: tool.title,
    description: tool.description,
    tags: [tool.kind === "read" ? "read" : "mutating"],
  };
  if (tool.rest.method === "POST") {
    const body: JsonSchema = { ...input, properties: rest };
    if (required.length) body.required = required;
    else delete body.required;
    op.requestBody = { required: true, content: { "application/json": { schema: body } } };
  } else {
    for (const [name, schema] of Object.entries(rest)) {
      parameters.push({ name, in: "query", required: required.includes(name), schema });
    }
  }
  if (parameters.length) op.parameters = parameters;
  op.responses = {
    "200": { description: "Success.", content: { "application/json": { schema: jsonSchemaOf(tool.output, "output") } } },
    ...Object.fromEntries(Object.keys(ERROR_STATUSES).map((s) => [s, { $ref: `#/components/responses/E${s}` }])),
  };
  if (tool.kind === "mutating") op.security = [{ bearerAuth: [] }];
  return op;
}

function probe(operationId: string, description: string): Record<string, unknown> {
  return {
    operationId,
    summary: description,
    responses: {
      "200": { description: "OK.", content: { "application/json": { schema: { type: "object" } } } },
      "503": { description: "Not ready." },
    },
  };
}

const ERROR_SCHEMA = {
  type: "object",
  required: ["error", "request_id"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string" }, message: { type: "string" }, hint: { type: "string" } },
    },
    request_id: { type: "string" },
  },
};
