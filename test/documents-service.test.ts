/**
 * The document tools on both surfaces: `get_document` and `list_documents`
 * over REST and over MCP (the SDK's own client on Streamable HTTP), short ids,
 * and `search` across collections. Real files, a real server on 127.0.0.1.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, ingest, makeCorpus, startTestServer, TOKEN, type Corpus, type TestServer } from "./service-fixtures.js";

let corpus: Corpus;
let server: TestServer;

beforeAll(async () => {
  corpus = await makeCorpus();
  await ingest(corpus.indexDir, [join(corpus.docs, "guides")], "guides");
  server = await startTestServer({ indexDir: corpus.indexDir });
});
afterAll(async () => {
  await server.close();
  corpus.cleanup();
});

describe("REST", () => {
  it("lists documents a page at a time and reads a line range by id prefix or by source", async () => {
    const first = await http(server, "GET", "/v1/collections/default/documents?limit=2");
    expect(first.status, first.text).toBe(200);
    expect(first.json.documents.map((d: { source: string }) => d.source)).toEqual([
      join(corpus.docs, "citations.md"),
      join(corpus.docs, "guides", "install.md"),
    ]);
    const next = await http(server, "GET", `/v1/collections/default/documents?limit=2&after=${encodeURIComponent(first.json.next_after)}`);
    expect(next.json).toMatchObject({ documents: [{ source: join(corpus.docs, "notes.txt"), source_class: "text", chunks: 1 }], next_after: null });

    const id = first.json.documents[0].document_id as string;
    const byId = await http(server, "GET", `/v1/collections/default/document-text?document=${id.slice(0, 8)}&start_line=5&end_line=5`);
    expect(byId.status, byId.text).toBe(200);
    expect(byId.json).toMatchObject({ document_id: id, start_line: 5, end_line: 5, text: "## Verification", verification: { verdict: "verified" } });
    const source = encodeURIComponent(join(corpus.docs, "notes.txt"));
    const bySource = await http(server, "GET", `/v1/collections/default/document-text?document=${source}&max_chars=10`);
    expect(bySource.json).toMatchObject({ truncated: true, text: "Plain text", next_line: null });
    // The citation of a range verifies like a search hit's.
    const verified = await http(server, "POST", "/v1/verify", { body: { collection: "default", citation: byId.json.citation } });
    expect(verified.json.verdict, verified.text).toBe("verified");

    const missing = await http(server, "GET", "/v1/collections/default/document-text?document=ffffffffffff");
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe("DOCUMENT_NOT_FOUND");
    const tooBig = await http(server, "GET", `/v1/collections/default/document-text?document=${id}&max_chars=999999999`);
    expect(tooBig.status).toBe(400);
  });

  it("searches several collections at once, each hit labelled", async () => {
    const res = await http(server, "POST", "/v1/search", { body: { query: "install npm", collections: ["default", "guides"] } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.collections).toEqual(["default", "guides"]);
    expect(res.json.results.map((h: { collection: string }) => h.collection).sort()).toEqual(["default", "guides"]);
    const all = await http(server, "POST", "/v1/search", { body: { query: "install npm", all_collections: true } });
    expect(all.json.collections).toEqual(["default", "guides"]);
    const both = await http(server, "POST", "/v1/search", { body: { query: "x", collection: "default", collections: ["guides"] } });
    expect(both.status).toBe(400);
  });
});

describe("ingest tool", () => {
  it("leaves no collection behind when every input of a call that created it fails", async () => {
    const writer = await startTestServer({ indexDir: corpus.indexDir, allowedRoots: [corpus.docs] }, { token: TOKEN });
    try {
      const res = await http(writer, "POST", "/v1/collections/typo/ingest", {
        // A loopback URL is refused by the SSRF guard per input (a missing path is refused before anything is opened).
        body: { inputs: ["http://127.0.0.1:9/page.html"] },
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json.failed).toEqual([expect.objectContaining({ code: "SSRF_BLOCKED" })]);
      const listed = await http(writer, "GET", "/v1/collections");
      expect(listed.json.collections.map((c: { name: string }) => c.name)).toEqual(["default", "guides"]);
    } finally {
      await writer.close();
    }
  });
});

describe("MCP", () => {
  it("offers get_document and list_documents with the same results", async () => {
    const client = new Client({ name: "groundkit-docs-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", server.url)));
    try {
      const listed = (await client.callTool({ name: "list_documents", arguments: { prefix: join(corpus.docs, "guides") } })) as CallToolResult;
      expect(listed.isError ?? false).toBe(false);
      const docs = (listed.structuredContent as { documents: Array<{ document_id: string }> }).documents;
      expect(docs).toHaveLength(1);
      const got = (await client.callTool({
        name: "get_document",
        arguments: { document: docs[0]!.document_id.slice(0, 6), start_line: 3 },
      })) as CallToolResult;
      expect(got.structuredContent).toMatchObject({ start_line: 3, text: "Run npm ci to install the engine on Linux and macOS." });
      const across = (await client.callTool({
        name: "search",
        arguments: { query: "install", collections: ["guides", "default"], top_k: 3 },
      })) as CallToolResult;
      expect((across.structuredContent as { results: Array<{ collection: string }> }).results[0]!.collection).toMatch(/^(guides|default)$/);
    } finally {
      await client.close();
    }
  });
});
