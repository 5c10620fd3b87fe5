/**
 * Registry parity: every tool a server offers exists on both surfaces (MCP and
 * REST) with the same name and input schema, and neither surface offers a tool
 * the other lacks, with and without the shared secret. Output schemas are
 * documented in /openapi.json only (ADR 0029: MCP's tools/list stays small), so
 * outputs are held to them by calling: every read tool answers the same
 * arguments with the same JSON on both surfaces, and that JSON satisfies the
 * response schema the OpenAPI document declares for it.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ALL_TOOLS, type ToolDefinition } from "../src/service/tool-registry.js";
import { jsonSchemaOf } from "../src/service/openapi.js";
import { http, makeCorpus, startTestServer, TOKEN, type Corpus, type TestServer } from "./service-fixtures.js";

type Schema = { properties?: Record<string, unknown>; required?: string[]; [k: string]: unknown };
type Operation = {
  operationId: string;
  parameters?: Array<{ name: string; in: string; required: boolean; schema: unknown }>;
  requestBody?: { content: { "application/json": { schema: Schema } } };
  responses: { "200": { content: { "application/json": { schema: Schema } } } };
  security?: unknown;
};

let corpus: Corpus;
beforeAll(async () => {
  corpus = await makeCorpus();
});
afterAll(() => corpus.cleanup());

function withoutDialect(schema: Schema): Schema {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

/** Rebuild a tool's input schema from its REST operation: path and query parameters plus the body. */
function inputFromOperation(op: Operation, method: string): { schema: Schema; pathParams: string[] } {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === "path").map((p) => p.name);
  const body = op.requestBody?.content["application/json"].schema;
  const base: Schema = body ? { ...body } : { type: "object", additionalProperties: false };
  const properties: Record<string, unknown> = { ...(body?.properties ?? {}) };
  const required = [...(body?.required ?? [])];
  for (const p of params) {
    properties[p.name] = p.schema;
    if (p.in === "query" && p.required) required.push(p.name);
  }
  expect(method === "post" ? body !== undefined : body === undefined).toBe(true);
  const schema: Schema = { ...base, properties };
  if (required.length) schema.required = required;
  else delete schema.required;
  return { schema, pathParams };
}

async function mcpClient(s: TestServer, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "parity", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", s.url), { requestInit: { headers } }));
  return client;
}

async function mcpTools(s: TestServer, headers: Record<string, string>) {
  const client = await mcpClient(s, headers);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

/** What `tools/list` weighs on the wire, as the client received it. */
async function toolListBytes(s: TestServer, headers: Record<string, string>): Promise<number> {
  return Buffer.byteLength(JSON.stringify({ tools: await mcpTools(s, headers) }));
}

/** The REST request for a tool call: path parameters in the URL, the rest in the query (GET) or the body (POST). */
async function restCall(s: TestServer, tool: ToolDefinition, args: Record<string, unknown>, headers: Record<string, string>) {
  const rest = { ...args };
  let path = tool.rest.path.replace(/:([a-z_]+)/g, (_m, name: string) => {
    const value = String(rest[name] ?? "default");
    delete rest[name];
    return encodeURIComponent(value);
  });
  if (tool.rest.method !== "POST") {
    const query = new URLSearchParams(Object.entries(rest).map(([k, v]): [string, string] => [k, String(v)])).toString();
    if (query) path += `?${query}`;
    return http(s, tool.rest.method, path, { headers });
  }
  return http(s, "POST", path, { body: rest, headers });
}

describe.each([
  { label: "without a secret", token: undefined, headers: {} as Record<string, string>, expected: ALL_TOOLS.filter((t) => t.kind === "read") },
  {
    label: "with a secret and its bearer token",
    token: TOKEN,
    headers: { authorization: `Bearer ${TOKEN}` } as Record<string, string>,
    expected: ALL_TOOLS,
  },
])("parity $label", ({ token, headers, expected }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ indexDir: corpus.indexDir, allowedRoots: [corpus.docs] }, { token });
  });
  afterAll(async () => server.close());

  it("offers the same tools, with the same schemas, on MCP and REST", async () => {
    const tools = await mcpTools(server, headers);
    const doc = (await http(server, "GET", "/openapi.json")).json as { paths: Record<string, Record<string, Operation>> };
    const operations = new Map<string, { op: Operation; method: string; path: string }>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) operations.set(op.operationId, { op, method, path });
    }
    const restTools = [...operations.keys()].filter((id) => !["mcp", "healthz", "readyz"].includes(id));
    // REST-only tools (answer) are the one difference, and a declared one.
    const onMcp = expected.filter((t) => (t.surfaces ?? "both") === "both");
    expect(tools.map((t) => t.name).sort()).toEqual(onMcp.map((t) => t.name).sort());
    expect(restTools.sort()).toEqual(expected.map((t) => t.name).sort());

    for (const tool of tools) {
      const found = operations.get(tool.name)!;
      const { schema, pathParams } = inputFromOperation(found.op, found.method);
      const mcpInput = withoutDialect(tool.inputSchema as Schema);
      // Path parameters are required in a URL even where MCP leaves them optional (they default).
      const mcpRequired = (mcpInput.required ?? []).filter((n) => !pathParams.includes(n));
      expect({ ...schema, required: (schema.required ?? []).sort() }, tool.name).toEqual({
        ...mcpInput,
        required: mcpRequired.sort(),
      });
      expect(tool.outputSchema, tool.name).toBeUndefined();
      expect(found.op.security !== undefined, tool.name).toBe(tool.annotations?.readOnlyHint === false);
    }
  });

  it("keeps tools/list within 10 KB, which every MCP connection pays for", async () => {
    expect(await toolListBytes(server, headers)).toBeLessThanOrEqual(10_000);
  });

  it("answers every read tool with the same JSON on MCP and REST, within the OpenAPI response schema", async () => {
    const doc = (await http(server, "GET", "/openapi.json")).json as { paths: Record<string, Record<string, Operation>> };
    const declared = new Map<string, Schema>();
    for (const methods of Object.values(doc.paths)) {
      for (const op of Object.values(methods)) declared.set(op.operationId, op.responses["200"].content?.["application/json"].schema);
    }
    const rest = await http(server, "POST", "/v1/search", { body: { query: "hash of the cited text", verify: true }, headers });
    const hit = (rest.json as { results: Array<{ chunk_id: string; document_id: string; citation: unknown }> }).results[0]!;
    // Every read tool, called with arguments that reach its handler's main path (search in both forms).
    const calls: Array<[string, Record<string, unknown>]> = [
      ["search", { query: "hash of the cited text", format: "full", verify: true }],
      ["search", { query: "hash of the cited text", format: "compact", top_k: 2 }],
      ["fetch_chunk", { chunk_id: hit.chunk_id, collection: "default", context_chars: 20 }],
      ["get_document", { document: hit.document_id, collection: "default", start_line: 2 }],
      ["list_documents", { collection: "default", limit: 2 }],
      ["verify_citation", { citation: hit.citation }],
      ["verify_quote", { quote: "exact offsets", chunk_id: "0".repeat(32) }],
      ["verify_quote", { quote: "comparing the hash", document_id: hit.document_id }],
      ["list_collections", {}],
      ["index_status", { collection: "default" }],
      ["document_history", { document: hit.document_id, collection: "default", version: "0", max_chars: 40 }],
    ];
    const onMcp = expected.filter((t) => t.kind === "read" && (t.surfaces ?? "both") === "both").map((t) => t.name);
    expect([...new Set(calls.map(([name]) => name))].sort()).toEqual(onMcp.sort());
    const client = await mcpClient(server, headers);
    try {
      for (const [name, args] of calls) {
        const tool = ALL_TOOLS.find((t) => t.name === name)!;
        const viaRest = await restCall(server, tool, args, headers);
        const viaMcp = (await client.callTool({ name, arguments: args })) as CallToolResult;
        const label = `${name} ${JSON.stringify(args)}`;
        if (viaRest.status !== 200) {
          // A refusal is refused the same way on both surfaces.
          expect(viaMcp.isError, label).toBe(true);
          expect(JSON.parse((viaMcp.content[0] as { text: string }).text).error.code, label).toBe(viaRest.json.error.code);
          continue;
        }
        expect(viaMcp.isError ?? false, label).toBe(false);
        expect(viaMcp.structuredContent, label).toEqual(viaRest.json);
        // The OpenAPI schema is the declared output; the response satisfies it.
        expect(withoutDialect(declared.get(name)!), label).toEqual(jsonSchemaOf(tool.output, "output"));
        expect(tool.output.safeParse(viaRest.json).success, label).toBe(true);
      }
    } finally {
      await client.close();
    }
  });

  it("answers every REST route it documents (no route is missing behind its document)", async () => {
    const doc = (await http(server, "GET", "/openapi.json")).json as { paths: Record<string, Record<string, Operation>> };
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        const concrete = path.replace(/\{[a-z_]+\}/g, "default");
        const res = await http(server, method.toUpperCase(), concrete, method === "post" ? { body: {} } : { headers });
        expect(res.json?.error?.code, `${method} ${concrete}`).not.toBe("ROUTE_NOT_FOUND");
      }
    }
  });
});
