/**
 * MCP over Streamable HTTP (`grk serve`'s /mcp) with the SDK's own client:
 * the same tools as stdio, the bearer token adding the mutating ones, and the
 * Host/Origin guards in front of /mcp too. Also `grk serve` as a real process.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkBind } from "../src/cli/serve.js";
import { grk, grkServe } from "./support/cli.js";
import { http, makeCorpus, startTestServer, TOKEN, type Corpus, type TestServer } from "./service-fixtures.js";

let corpus: Corpus;
let server: TestServer;

beforeAll(async () => {
  corpus = await makeCorpus();
  server = await startTestServer({ indexDir: corpus.indexDir, allowedRoots: [corpus.docs] }, { token: TOKEN });
});
afterAll(async () => {
  await server.close();
  corpus.cleanup();
});

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "groundkit-http-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", url), { requestInit: { headers } }));
  return client;
}

function structured(result: unknown): Record<string, unknown> {
  const r = result as CallToolResult;
  expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
  return r.structuredContent as Record<string, unknown>;
}

describe("MCP over Streamable HTTP", () => {
  it("lists the read tools without a token and runs search then fetch_chunk", async () => {
    const client = await connect(server.url);
    try {
      expect(client.getServerVersion()?.name).toBe("groundkit");
      expect(client.getInstructions()).toContain("fetch_chunk");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["search", "fetch_chunk", "get_document", "list_documents", "document_history", "verify_citation", "verify_quote", "list_collections", "index_status"]);
      const found = structured(await client.callTool({ name: "search", arguments: { query: "npm ci install", top_k: 1 } }));
      const [hit] = found.results as Array<{ chunk_id: string; passage: string; citation: unknown }>;
      const chunk = structured(await client.callTool({ name: "fetch_chunk", arguments: { chunk_id: hit!.chunk_id, context_chars: 10 } }));
      expect(chunk).toMatchObject({ verdict: "verified", citation: hit!.citation });
      expect(chunk.text).toContain(hit!.passage);
    } finally {
      await client.close();
    }
  });

  it("adds the mutating tools for a valid bearer token; ingest is then seen by search", async () => {
    const client = await connect(server.url, { authorization: `Bearer ${TOKEN}` });
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["ingest", "delete_document"]));
      writeFileSync(join(corpus.docs, "http-new.md"), "# New\n\nThe pangolin is covered in scales.\n");
      expect(structured(await client.callTool({ name: "ingest", arguments: { inputs: ["http-new.md"] } }))).toMatchObject({ indexed: 1 });
      const found = structured(await client.callTool({ name: "search", arguments: { query: "pangolin" } }));
      expect((found.results as unknown[]).length).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("refuses a wrong bearer token", async () => {
    await expect(connect(server.url, { authorization: "Bearer wrong" })).rejects.toThrow();
    const res = await http(server, "POST", "/mcp", { body: {}, headers: { authorization: "Bearer wrong" } });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("UNAUTHORIZED");
  });

  it("refuses a forged Host header and a cross-origin request on /mcp", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const accept = { accept: "application/json, text/event-stream" };
    const forged = await http(server, "POST", "/mcp", { body: init, headers: { ...accept, host: "rebound.example:80" } });
    expect(forged.status).toBe(403);
    const cross = await http(server, "POST", "/mcp", { body: init, headers: { ...accept, origin: "https://evil.example" } });
    expect(cross.status).toBe(403);
    const ok = await http(server, "POST", "/mcp", { body: init, headers: accept });
    expect(ok.status).toBe(200);
    expect(ok.json.result.serverInfo.name).toBe("groundkit");
    expect(ok.headers["x-request-id"]).toBeTruthy();
  });

  it("answers GET /mcp with 405 (stateless server, no stream)", async () => {
    const res = await http(server, "GET", "/mcp", { headers: { accept: "text/event-stream" } });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("POST");
  });
});

describe("grk serve (the CLI process)", () => {
  it("refuses a non-loopback bind without --allow-non-loopback, and warns with it", () => {
    const res = grk(["serve", "--host", "0.0.0.0", "--port", "0", "--index-dir", corpus.indexDir], { cwd: corpus.dir });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe("");
    expect(res.stderr).toMatch(/error\[USAGE\].*--allow-non-loopback/);
    expect(checkBind("127.0.0.1", false)).toBeUndefined();
    expect(checkBind("::1", false)).toBeUndefined();
    expect(checkBind("0.0.0.0", true)).toMatch(/^warning: listening on 0\.0\.0\.0/);
  });

  it("serves REST and MCP on 127.0.0.1, read-only without the token", async () => {
    const { url, child } = await grkServe(["--port", "0", "--index-dir", corpus.indexDir], { cwd: corpus.dir });
    try {
      const client = await connect(url);
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names).not.toContain("ingest");
        const found = structured(await client.callTool({ name: "search", arguments: { query: "citation" } }));
        expect((found.results as unknown[]).length).toBeGreaterThan(0);
      } finally {
        await client.close();
      }
      const res = await fetch(`${url}/v1/collections/default/ingest`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ inputs: ["."] }),
      });
      // Refused, saying the server needs GROUNDKIT_API_TOKEN (not a bare "No route").
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("MUTATION_DISABLED");
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  });
});
