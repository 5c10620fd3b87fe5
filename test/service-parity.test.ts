/**
 * Registry parity: every tool a server offers exists on both surfaces (MCP and
 * REST) with the same name, input schema and output schema, and neither
 * surface offers a tool the other lacks, with and without the shared secret.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_TOOLS } from "../src/service/tool-registry.js";
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

async function mcpTools(s: TestServer, headers: Record<string, string>) {
  const client = new Client({ name: "parity", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", s.url), { requestInit: { headers } }));
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
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
      expect(withoutDialect(found.op.responses["200"].content["application/json"].schema), tool.name).toEqual(
        withoutDialect(tool.outputSchema as Schema),
      );
      expect(found.op.security !== undefined, tool.name).toBe(tool.annotations?.readOnlyHint === false);
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
