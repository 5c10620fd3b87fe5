/**
 * Document history on the service surfaces (docs/decisions/0031-document-history.md):
 * REST `POST /v1/verify` and `document_history`, MCP `verify_citation`,
 * `fetch_chunk` of a chunk only an earlier version had, and the OpenAPI
 * document. A real server on 127.0.0.1, the MCP SDK's own client.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, ingest, makeCorpus, startTestServer, type Corpus, type TestServer } from "./service-fixtures.js";

let corpus: Corpus;
let server: TestServer;
let cited: { citation: Record<string, unknown>; text: string; chunk_id: string; document_id: string };

beforeAll(async () => {
  corpus = await makeCorpus();
  server = await startTestServer({ indexDir: corpus.indexDir });
  const res = await http(server, "POST", "/v1/search", { body: { query: "backups snapshots", top_k: 1 } });
  cited = res.json.results[0];
  // The notes change and are ingested again: the cited chunk now lives only in the history.
  writeFileSync(join(corpus.docs, "notes.txt"), "Plain text notes 😀 about restores and archives.\nSecond line.\n");
  await ingest(corpus.indexDir, [corpus.docs]);
});
afterAll(async () => {
  await server?.close();
  corpus?.cleanup();
});

function structured(result: unknown): Record<string, unknown> {
  const r = result as CallToolResult;
  expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
  return r.structuredContent as Record<string, unknown>;
}

describe("history over REST", () => {
  it("a drifted citation carries the text as cited, its version, and what the source says there now", async () => {
    const res = await http(server, "POST", "/v1/verify", { body: { citation: cited.citation } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.verdict).toBe("drifted");
    expect(res.json.as_cited).toMatchObject({ text: cited.text, version: 1, source: join(corpus.docs, "notes.txt") });
    expect(res.json.current_text).toContain("restores");
  });

  it("lists a document's versions and reads an old one", async () => {
    const source = encodeURIComponent(join(corpus.docs, "notes.txt"));
    const list = await http(server, "GET", `/v1/collections/default/history?document=${source}`);
    expect(list.status, list.text).toBe(200);
    expect(list.json.versions.map((v: { version: number; status: string }) => [v.version, v.status])).toEqual([
      [0, "current"],
      [1, "replaced"],
    ]);
    const old = await http(server, "GET", `/v1/collections/default/history?document=${cited.document_id}&version=1`);
    expect(old.json.text).toMatchObject({ version: 1, text: "Plain text notes 😀 about backups and snapshots.\nSecond line.\n", exact: true });
    const missing = await http(server, "GET", `/v1/collections/default/history?document=${cited.document_id}&version=9`);
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe("VERSION_NOT_FOUND");
    const doc = await http(server, "GET", "/openapi.json");
    expect(doc.json.paths["/v1/collections/{collection}/history"].get.operationId).toBe("document_history");
  });
});

describe("history over MCP", () => {
  it("verify_citation and fetch_chunk of a replaced chunk carry the old text", async () => {
    const client = new Client({ name: "groundkit-history-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", server.url)));
    try {
      const verified = structured(await client.callTool({ name: "verify_citation", arguments: { citation: cited.citation } }));
      expect(verified).toMatchObject({ verdict: "drifted", as_cited: { text: cited.text, version: 1 } });
      const fetched = structured(await client.callTool({ name: "fetch_chunk", arguments: { chunk_id: cited.chunk_id } }));
      expect(fetched).toMatchObject({ chunk_id: cited.chunk_id, verdict: "drifted", text: null, as_cited: { text: cited.text, version: 1 } });
      const listed = structured(await client.callTool({ name: "document_history", arguments: { document: cited.document_id } }));
      expect((listed.versions as unknown[]).length).toBe(2);
    } finally {
      await client.close();
    }
  });
});
