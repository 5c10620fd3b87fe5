/**
 * The service surfaces of answers: REST `POST /v1/answer` (JSON and
 * Server-Sent Events) with the server's chat model, and `verify_quote` on REST
 * and from the MCP SDK's own client over Streamable HTTP.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passageNumber, startChatServer, type ChatServer } from "./support/chat-server.js";
import { http, makeCorpus, startTestServer, type Corpus, type TestServer } from "./service-fixtures.js";

let corpus: Corpus;
let server: TestServer;
let chat: ChatServer;

beforeAll(async () => {
  corpus = await makeCorpus();
  chat = await startChatServer((req) => ({
    text: `A citation is checked by "re-reading the source" [${passageNumber(req, "re-reading")}].`,
    chunkSize: 4,
  }));
  server = await startTestServer({
    indexDir: corpus.indexDir,
    settings: { chat: { provider: "openai", base_url: `${chat.origin}/v1`, model: "gpt-test", allow_private_network: true } },
  });
});
afterAll(async () => {
  await server.close();
  await chat.close();
  corpus.cleanup();
});

async function mcp(): Promise<Client> {
  const client = new Client({ name: "groundkit-answer-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", server.url)));
  return client;
}

function structured(result: unknown): Record<string, unknown> {
  const r = result as CallToolResult;
  expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
  return r.structuredContent as Record<string, unknown>;
}

describe("POST /v1/answer", () => {
  it("answers with the grounding report as JSON", async () => {
    const res = await http(server, "POST", "/v1/answer", { body: { query: "how is a citation checked" } });
    expect(res.status).toBe(200);
    const body = res.json as { grounding: { verdict: string; quotes: Array<{ found: boolean }> }; answer: string };
    expect(body.grounding.verdict).toBe("grounded");
    expect(body.grounding.quotes[0]!.found).toBe(true);
  });

  it("streams retrieval and token events, then the result, as text/event-stream", async () => {
    const res = await http(server, "POST", "/v1/answer", { body: { query: "how is a citation checked" }, headers: { accept: "text/event-stream" } });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/event-stream/);
    const events = [...res.text.matchAll(/^event: (\w+)\ndata: (.*)\n\n/gm)].map((m) => ({ event: m[1]!, data: JSON.parse(m[2]!) as Record<string, unknown> }));
    expect(events[0]!.event).toBe("retrieval");
    const tokens = events.filter((e) => e.event === "token");
    expect(tokens.length).toBeGreaterThan(3);
    const result = events[events.length - 1]!;
    expect(result.event).toBe("result");
    expect(tokens.map((t) => t.data["text"]).join("")).toBe(result.data["answer"]);
    expect((result.data["grounding"] as { verdict: string }).verdict).toBe("grounded");
  });

  it("refuses bad arguments with a 400 before any stream starts", async () => {
    const res = await http(server, "POST", "/v1/answer", { body: { query: "" }, headers: { accept: "text/event-stream" } });
    expect(res.status).toBe(400);
    expect((res.json as { error: { code: string } }).error.code).toBe("INVALID_ARGUMENT");
  });

  it("is not an MCP tool: agents get verify_quote instead", async () => {
    const client = await mcp();
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("verify_quote");
      expect(names).not.toContain("answer");
    } finally {
      await client.close();
    }
  });
});

describe("verify_quote", () => {
  async function hitFor(query: string): Promise<{ chunk_id: string; document_id: string }> {
    const res = await http(server, "POST", "/v1/search", { body: { query } });
    return (res.json as { results: Array<{ chunk_id: string; document_id: string }> }).results[0]!;
  }

  it("from the MCP SDK client: finds a quote in a chunk, with a citation that verify_citation confirms", async () => {
    const hit = await hitFor("citation checked re-reading");
    const client = await mcp();
    try {
      const out = structured(
        await client.callTool({ name: "verify_quote", arguments: { quote: "comparing the hash\n of the cited text", chunk_id: hit.chunk_id } }),
      ) as { found: boolean; verdict: string; occurrences: Array<{ citation: Record<string, unknown>; verification: { verdict: string } }> };
      expect(out).toMatchObject({ found: true, verdict: "verified" });
      expect(out.occurrences).toHaveLength(1);
      const check = structured(await client.callTool({ name: "verify_citation", arguments: { citation: out.occurrences[0]!.citation } }));
      expect(check["verdict"]).toBe("verified");
      const missing = structured(await client.callTool({ name: "verify_quote", arguments: { quote: "comparing the checksum", chunk_id: hit.chunk_id } }));
      expect(missing).toMatchObject({ found: false, verdict: "not_found", occurrences: [] });
      const bad = (await client.callTool({ name: "verify_quote", arguments: { quote: "x", chunk_id: hit.chunk_id, document_id: hit.document_id } })) as CallToolResult;
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("on REST: finds every occurrence in a document's current text, past an emoji", async () => {
    const hit = await hitFor("backups snapshots notes");
    const res = await http(server, "POST", "/v1/verify-quote", { body: { quote: "about backups", document_id: hit.document_id } });
    expect(res.status).toBe(200);
    const out = res.json as { found: boolean; occurrences: Array<{ citation: { start_offset: number; end_offset: number } }> };
    expect(out.found).toBe(true);
    // "Plain text notes 😀 about backups": the emoji is one code point.
    expect(out.occurrences[0]!.citation.start_offset).toBe("Plain text notes 😀 ".length - 1);
    const none = await http(server, "POST", "/v1/verify-quote", { body: { quote: "x", document_id: "0".repeat(32) } });
    expect(none.status).toBe(404);
  });
});
