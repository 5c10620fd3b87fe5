/**
 * GET /metrics on real in-process servers on 127.0.0.1: the scrape parses with
 * a Prometheus text-format parser, its counters move as REST and MCP requests
 * are made (calls, latency, errors by code, verdicts, ingest counts, shed
 * 503s), the bearer token guards it, and two servers in one process keep
 * separate counts.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Scrape } from "./support/prometheus.js";
import { http, makeCorpus, runningRequest, startSilentChat, startTestServer, TOKEN, type Corpus, type TestServer } from "./service-fixtures.js";

const AUTH = { authorization: `Bearer ${TOKEN}` };

let corpus: Corpus;
let server: TestServer;

async function scrape(target: TestServer = server, headers: Record<string, string> = AUTH): Promise<Scrape> {
  const res = await http(target, "GET", "/metrics", { headers });
  expect(res.status, res.text).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return new Scrape(res.text);
}

beforeAll(async () => {
  corpus = await makeCorpus();
  server = await startTestServer({ indexDir: corpus.indexDir, allowedRoots: [corpus.docs] }, { token: TOKEN });
});
afterAll(async () => {
  await server.close();
  corpus.cleanup();
});

describe("GET /metrics", () => {
  it("is refused without the bearer token, or with a wrong one, when a token is set", async () => {
    const none = await http(server, "GET", "/metrics");
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe("UNAUTHORIZED");
    const wrong = await http(server, "GET", "/metrics", { headers: { authorization: "Bearer not-the-token-at-all" } });
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain("groundkit_tool_calls_total");
  });

  it("counts REST tool calls, their latency and the verdicts they return", async () => {
    const before = await scrape();
    const labels = { tool: "search", transport: "rest", outcome: "ok" };
    for (let i = 0; i < 2; i++) {
      const res = await http(server, "POST", "/v1/search", { body: { query: "citation offsets", verify: true } });
      expect(res.status).toBe(200);
    }
    const hits = (await http(server, "POST", "/v1/search", { body: { query: "citation offsets", verify: true } })).json.results.length;
    const after = await scrape();
    expect(after.value("groundkit_tool_calls_total", labels) - before.value("groundkit_tool_calls_total", labels)).toBe(3);
    const hist = { tool: "search", transport: "rest" };
    expect(after.count("groundkit_tool_call_duration_seconds", hist) - before.count("groundkit_tool_call_duration_seconds", hist)).toBe(3);
    const verified = { verdict: "verified", source_class: "text" };
    expect(after.value("groundkit_verifications_total", verified) - before.value("groundkit_verifications_total", verified)).toBe(3 * hits);
    const route = { method: "POST", route: "/v1/search", status: "200" };
    expect(after.value("groundkit_http_requests_total", route) - before.value("groundkit_http_requests_total", route)).toBe(3);
    expect(after.value("groundkit_open_collections")).toBe(1);
    expect(after.value("groundkit_http_max_concurrency")).toBe(256);
    expect(after.families.get("groundkit_tool_call_duration_seconds")?.type).toBe("HISTOGRAM");
  });

  it("counts errors by code and a drifted verdict after the source changes", async () => {
    const before = await scrape();
    expect((await http(server, "POST", "/v1/search", { body: { query: "" } })).status).toBe(400);
    expect((await http(server, "POST", "/v1/search", { body: { query: "x", collection: "missing" } })).status).toBe(404);
    const after = await scrape();
    const invalid = { code: "INVALID_ARGUMENT", transport: "rest" };
    const missing = { code: "COLLECTION_NOT_FOUND", transport: "rest" };
    expect(after.value("groundkit_errors_total", invalid) - before.value("groundkit_errors_total", invalid)).toBe(1);
    expect(after.value("groundkit_errors_total", missing) - before.value("groundkit_errors_total", missing)).toBe(1);
    const failed = { tool: "search", transport: "rest", outcome: "error" };
    expect(after.value("groundkit_tool_calls_total", failed) - before.value("groundkit_tool_calls_total", failed)).toBe(2);

    const found = await http(server, "POST", "/v1/search", { body: { query: "npm ci install", top_k: 1 } });
    const citation = found.json.results[0].citation;
    writeFileSync(join(corpus.docs, "guides", "install.md"), "# Install\n\nRun something else entirely now.\n");
    const checked = await http(server, "POST", "/v1/verify", { body: { citation } });
    expect(checked.json.verdict).toBe("drifted");
    const drifted = { verdict: "drifted", source_class: "text" };
    expect((await scrape()).value("groundkit_verifications_total", drifted) - before.value("groundkit_verifications_total", drifted)).toBe(1);
  });

  it("counts ingest documents, chunks and failures from the ingest tool", async () => {
    writeFileSync(join(corpus.docs, "fresh.md"), "# Fresh\n\nA new page about snapshots.\n");
    writeFileSync(join(corpus.docs, "broken.md"), Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    const before = await scrape();
    const res = await http(server, "POST", "/v1/collections/default/ingest", { body: { inputs: [corpus.docs] }, headers: AUTH });
    expect(res.status, res.text).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => after.value(name, labels) - before.value(name, labels);
    expect(delta("groundkit_ingest_documents_total", { outcome: "indexed" })).toBe(res.json.indexed);
    expect(res.json.indexed).toBeGreaterThanOrEqual(1);
    expect(delta("groundkit_ingest_documents_total", { outcome: "unchanged" })).toBe(res.json.unchanged);
    expect(delta("groundkit_ingest_documents_total", { outcome: "failed" })).toBe(1);
    expect(delta("groundkit_ingest_chunks_total")).toBe(res.json.chunks_written);
    expect(delta("groundkit_ingest_failures_total", { code: res.json.failed[0].code })).toBe(1);
  });

  it("counts MCP tool calls under their own transport", async () => {
    const before = await scrape();
    const client = new Client({ name: "metrics-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", server.url)));
    try {
      await client.callTool({ name: "search", arguments: { query: "backups", top_k: 1 } });
      const bad = await client.callTool({ name: "fetch_chunk", arguments: { chunk_id: "nope" } });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
    const after = await scrape();
    const ok = { tool: "search", transport: "mcp-http", outcome: "ok" };
    expect(after.value("groundkit_tool_calls_total", ok) - before.value("groundkit_tool_calls_total", ok)).toBe(1);
    const err = { code: "CHUNK_NOT_FOUND", transport: "mcp-http" };
    expect(after.value("groundkit_errors_total", err) - before.value("groundkit_errors_total", err)).toBe(1);
    expect(server.logs.some((l) => l.startsWith("info request ") && l.includes('"tool":"fetch_chunk"') && l.includes('"transport":"mcp-http"'))).toBe(true);
  });
});

describe("load shedding and separate registries", () => {
  let small: TestServer;
  let chat: Awaited<ReturnType<typeof startSilentChat>>;
  beforeAll(async () => {
    chat = await startSilentChat();
    small = await startTestServer({ indexDir: corpus.indexDir, settings: chat.settings }, { maxConcurrency: 1, requestTimeoutMs: 60_000 });
  });
  afterAll(async () => {
    await small.close();
  });

  it("counts 503s shed at capacity, scrapes while saturated, and keeps its own counts", async () => {
    const fresh = await scrape(small, {});
    expect(fresh.value("groundkit_tool_calls_total", { tool: "search", transport: "rest", outcome: "ok" })).toBe(0);
    expect(fresh.value("groundkit_http_shed_total")).toBe(0);

    const running = runningRequest(small);
    try {
      // The running answer holds the only slot while it waits for the chat model; /metrics is not bound by the slots.
      for (let s = await scrape(small, {}); s.value("groundkit_http_requests_in_flight") < 1; s = await scrape(small, {})) {
        await new Promise((r) => setTimeout(r, 10));
      }
      const shed = await http(small, "POST", "/v1/search", { body: { query: "backups" } });
      expect(shed.status).toBe(503);
      const during = await scrape(small, {});
      expect(during.value("groundkit_http_shed_total")).toBe(1);
      expect(during.value("groundkit_errors_total", { code: "OVERLOADED", transport: "rest" })).toBe(1);
      expect(during.value("groundkit_http_requests_in_flight")).toBe(1);
    } finally {
      await chat.close();
      await running.response.catch(() => undefined);
    }
    // The other server's traffic never shows here.
    expect((await scrape(small, {})).value("groundkit_tool_calls_total", { tool: "search", transport: "rest", outcome: "ok" })).toBe(0);
  });
});
