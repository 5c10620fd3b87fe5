/**
 * REST contract (`api.contract`): every route with its success shape and every
 * error status (400/401/403/404/409/413/415/422/503/504), X-Request-ID on every
 * response, the Host and Origin guards, the bearer token for mutating tools,
 * and no stack trace, server path or secret in any error.
 */
import { appendFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { grk } from "./support/cli.js";
import {
  http,
  makeCorpus,
  runningRequest,
  stalledRequest,
  startSilentChat,
  startTestServer,
  TOKEN,
  type Corpus,
  type HttpResult,
  type TestServer,
} from "./service-fixtures.js";

let corpus: Corpus;
let server: TestServer;

beforeAll(async () => {
  corpus = await makeCorpus();
  server = await startTestServer({ indexDir: corpus.indexDir });
});
afterAll(async () => {
  await server.close();
  corpus.cleanup();
});

function expectError(res: HttpResult, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.json.error.code).toBe(code);
  expect(typeof res.json.error.message).toBe("string");
  expect(res.json.request_id).toBe(res.headers["x-request-id"]);
  expect(res.text).not.toMatch(/\n\s+at /);
  expect(res.text).not.toContain(corpus.indexDir);
  expect(res.text).not.toContain(TOKEN);
  // The hint is for an HTTP caller: never the CLI's "check the command's help text".
  expect(res.json.error.hint).not.toContain("help text");
}

async function searchHits(s: TestServer, query: string, extra: Record<string, unknown> = {}) {
  const res = await http(s, "POST", "/v1/search", { body: { query, ...extra } });
  expect(res.status, res.text).toBe(200);
  return res.json.results as Array<{ chunk_id: string; document_id: string; text: string; citation: Record<string, unknown>; verification?: { verdict: string } }>;
}

describe("read routes", () => {
  it("GET /healthz and /readyz answer with a request id", async () => {
    const health = await http(server, "GET", "/healthz");
    expect(health.status).toBe(200);
    expect(health.json).toEqual({ status: "ok" });
    expect(health.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const ready = await http(server, "GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.json.status).toBe("ready");
  });

  it("GET /v1/collections lists collections with counts", async () => {
    const res = await http(server, "GET", "/v1/collections");
    expect(res.status).toBe(200);
    expect(res.json.collections).toEqual([
      expect.objectContaining({ name: "default", documents: 3, chunks: expect.any(Number), last_ingest_at: expect.any(String) }),
    ]);
  });

  it("POST /v1/search returns hits with citations, and verdicts with verify", async () => {
    const res = await http(server, "POST", "/v1/search", { body: { query: "hash of the cited text", top_k: 2, verify: true } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ query: "hash of the cited text", collection: "default", mode: "bm25" });
    expect(res.json.results.length).toBeGreaterThan(0);
    expect(res.json.results.length).toBeLessThanOrEqual(2);
    const top = res.json.results[0];
    expect(top.citation.source).toBe(join(corpus.docs, "citations.md"));
    expect(top.verification.verdict).toBe("verified");
  });

  it("passes mode, filters and rerank through to the library, which validates them", async () => {
    const txt = await searchHits(server, "backups snapshots", { filters: ["ext=txt"], rerank: false });
    expect(txt.length).toBeGreaterThan(0);
    for (const hit of txt) expect(hit.citation.source).toBe(join(corpus.docs, "notes.txt"));
    expect(await searchHits(server, "backups snapshots", { filters: ["ext=pdf"] })).toEqual([]);
    expectError(await http(server, "POST", "/v1/search", { body: { query: "x", filters: ["bogus"] } }), 400, "INVALID_FILTER");
    // A collection without vectors cannot answer dense or hybrid queries: 409, not an empty success.
    expectError(await http(server, "POST", "/v1/search", { body: { query: "x", mode: "dense" } }), 409, "NO_VECTORS");
  });

  it("GET /v1/collections/{c} describes the collection without server paths", async () => {
    const res = await http(server, "GET", "/v1/collections/default");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ collection: "default", documents: 3, schema_version: expect.any(Number) });
    expect(res.json.documents_by_class).toMatchObject({ text: 3 });
    expect(res.json.base_dirs).toEqual([corpus.docs]);
    expect(res.text).not.toContain(corpus.indexDir);
  });

  it("GET /v1/collections/{c}/chunks/{id} re-verifies and returns text and context", async () => {
    const [hit] = await searchHits(server, "npm ci install");
    const res = await http(server, "GET", `/v1/collections/default/chunks/${hit!.chunk_id}?context_chars=5`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ collection: "default", chunk_id: hit!.chunk_id, verdict: "verified", text: hit!.text });
    expect(res.json.citation).toEqual(hit!.citation);
    expect(res.json.detail).toMatch(/matches/);
    // The chunk is the whole small file: nothing before, at most 5 code points after.
    expect(res.json.context.before).toBe("");
    expect([...res.json.context.after].length).toBeLessThanOrEqual(5);
  });

  it("POST /v1/verify verifies a citation from a search hit", async () => {
    const [hit] = await searchHits(server, "backups snapshots");
    const res = await http(server, "POST", "/v1/verify", { body: { citation: hit!.citation, text: hit!.text } });
    expect(res.status).toBe(200);
    expect(res.json.verdict).toBe("verified");
    expect(res.json.citation).toEqual(hit!.citation);
  });

  it("GET /openapi.json documents every route from the schemas", async () => {
    const res = await http(server, "GET", "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe("3.1.0");
    expect(Object.keys(res.json.paths).sort()).toEqual(
      [
        "/healthz",
        "/mcp",
        "/readyz",
        "/v1/collections",
        "/v1/collections/{collection}",
        "/v1/collections/{collection}/chunks/{chunk_id}",
        "/v1/collections/{collection}/document-text",
        "/v1/collections/{collection}/documents",
        "/v1/collections/{collection}/history",
        "/v1/search",
        "/v1/verify",
        "/v1/verify-quote",
        "/v1/answer",
      ].sort(),
    );
    const search = res.json.paths["/v1/search"].post;
    expect(search.operationId).toBe("search");
    expect(search.requestBody.content["application/json"].schema.properties.query).toMatchObject({ type: "string", maxLength: 4096 });
  });

  it("GET / serves the web page with a restrictive CSP", async () => {
    const res = await http(server, "GET", "/");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.headers["content-security-policy"]).toContain("connect-src 'self'");
    expect(res.text).toContain('id="query"');
    expect(res.text).not.toMatch(/<script[^>]+src=/);
  });
});

describe("errors", () => {
  it("400 for schema violations, empty queries and malformed JSON", async () => {
    expectError(await http(server, "POST", "/v1/search", { body: { query: "" } }), 400, "INVALID_ARGUMENT");
    expectError(await http(server, "POST", "/v1/search", { body: { query: "   " } }), 400, "QUERY_EMPTY");
    const outOfRange = await http(server, "POST", "/v1/search", { body: { query: "x", top_k: 0 } });
    expectError(outOfRange, 400, "INVALID_ARGUMENT");
    expect(outOfRange.json.error.hint).toContain("GET /openapi.json");
    expectError(await http(server, "POST", "/v1/search", { body: { query: "x", top_k: 101 } }), 400, "INVALID_ARGUMENT");
    expectError(await http(server, "POST", "/v1/search", { body: { query: "x", mode: "magic" } }), 400, "INVALID_ARGUMENT");
    const unknown = await http(server, "POST", "/v1/search", { body: { query: "x", topK: 3 } });
    expectError(unknown, 400, "INVALID_ARGUMENT");
    expect(unknown.json.error.message).toContain("topK");
    expectError(await http(server, "POST", "/v1/search", { body: { query: "x".repeat(4097) } }), 400, "INVALID_ARGUMENT");
    expectError(await http(server, "POST", "/v1/search", { rawBody: "{not json", headers: { "content-type": "application/json" } }), 400, "INVALID_ARGUMENT");
    expectError(await http(server, "POST", "/v1/search", { body: ["query"] }), 400, "INVALID_ARGUMENT");
    expectError(await http(server, "GET", "/v1/collections/default/chunks/x?context_chars=lots"), 400, "INVALID_ARGUMENT");
  });

  it("400 for a collection name that could traverse, and nothing is created", async () => {
    expectError(await http(server, "GET", "/v1/collections/..%2Fescape"), 400, "INVALID_COLLECTION_NAME");
    expectError(await http(server, "POST", "/v1/search", { body: { query: "x", collection: "../../etc" } }), 400, "INVALID_COLLECTION_NAME");
  });

  it("404 for unknown collections, chunks and routes; asking never creates a collection", async () => {
    expectError(await http(server, "POST", "/v1/search", { body: { query: "x", collection: "ghost" } }), 404, "COLLECTION_NOT_FOUND");
    expectError(await http(server, "GET", "/v1/collections/ghost"), 404, "COLLECTION_NOT_FOUND");
    expectError(await http(server, "GET", "/v1/collections/ghost/chunks/abc"), 404, "COLLECTION_NOT_FOUND");
    expect(existsSync(join(corpus.indexDir, "ghost.sqlite3"))).toBe(false);
    expectError(await http(server, "GET", "/v1/collections/default/chunks/0000"), 404, "CHUNK_NOT_FOUND");
    expectError(await http(server, "GET", "/v2/nothing"), 404, "ROUTE_NOT_FOUND");
  });

  it("the mutating routes say a token is needed when no secret is configured, and change nothing", async () => {
    const before = (await http(server, "GET", "/v1/collections/default")).json;
    for (const res of [
      await http(server, "POST", "/v1/collections/default/ingest", { body: { inputs: [corpus.docs] } }),
      await http(server, "DELETE", "/v1/collections/default/documents/abc"),
    ]) {
      expectError(res, 403, "MUTATION_DISABLED");
      expect(res.json.error.message).toContain("GROUNDKIT_API_TOKEN");
      expect(res.json.error.hint).toMatch(/GROUNDKIT_API_TOKEN.*restart `grk serve`/);
    }
    expect((await http(server, "GET", "/v1/collections/default")).json).toEqual(before);
  });

  it("409 for a foreign index file, without revealing where it lives", async () => {
    writeFileSync(join(corpus.indexDir, "foreign.sqlite3"), "this is not sqlite at all, just text padding ".repeat(20));
    const res = await http(server, "GET", "/v1/collections/foreign");
    expectError(res, 409, "STORE_FOREIGN");
    expect(res.json.error.message).toContain("<index-dir>");
    const list = await http(server, "GET", "/v1/collections");
    expect(list.json.collections).toContainEqual(expect.objectContaining({ name: "foreign", error: "STORE_FOREIGN" }));
  });

  it("413 for a body over the cap", async () => {
    expectError(await http(server, "POST", "/v1/search", { body: { query: "x".repeat(300 * 1024) } }), 413, "PAYLOAD_TOO_LARGE");
  });

  it("415 for a body that is not JSON", async () => {
    expectError(await http(server, "POST", "/v1/search", { rawBody: "query=x", headers: { "content-type": "text/plain" } }), 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("422 for an invalid citation", async () => {
    const [hit] = await searchHits(server, "citation");
    expectError(await http(server, "POST", "/v1/verify", { body: { citation: { chunk_id: "x" } } }), 422, "INVALID_CITATION");
    const backwards = { ...hit!.citation, start_offset: 10, end_offset: 2 };
    expectError(await http(server, "POST", "/v1/verify", { body: { citation: backwards } }), 422, "INVALID_CITATION");
    // Absurd offsets and page claims are refused before anything is read.
    for (const absurd of [
      { end_offset: Number.MAX_SAFE_INTEGER + 2 },
      { end_offset: 1e300 },
      { start_offset: 1.5 },
      { start_offset: -1 },
      { start_line: 0 },
      { page_start: 3, page_end: 2 },
      { page_start: 2, page_end: null },
    ]) {
      const res = await http(server, "POST", "/v1/verify", { body: { citation: { ...hit!.citation, ...absurd } } });
      expectError(res, 422, "INVALID_CITATION");
    }
  });
});

describe("guards", () => {
  it("refuses a forged Host header (DNS rebinding)", async () => {
    expectError(await http(server, "GET", "/v1/collections", { headers: { host: "attacker.example:80" } }), 403, "FORBIDDEN");
    expectError(await http(server, "GET", "/v1/collections", { headers: { host: `127.0.0.1:${server.port + 1}` } }), 403, "FORBIDDEN");
    expect((await http(server, "GET", "/v1/collections", { headers: { host: `localhost:${server.port}` } })).status).toBe(200);
  });

  it("refuses a cross-origin browser request and accepts the page's own origin", async () => {
    const body = { query: "citation" };
    expectError(await http(server, "POST", "/v1/search", { body, headers: { origin: "https://evil.example" } }), 403, "FORBIDDEN");
    expectError(await http(server, "POST", "/v1/search", { body, headers: { origin: "null" } }), 403, "FORBIDDEN");
    expectError(await http(server, "POST", "/mcp", { body: {}, headers: { origin: "http://evil.example" } }), 403, "FORBIDDEN");
    const same = await http(server, "POST", "/v1/search", { body, headers: { origin: `http://127.0.0.1:${server.port}` } });
    expect(same.status).toBe(200);
  });

  it("echoes a well-formed X-Request-ID and replaces a malformed one", async () => {
    const echoed = await http(server, "GET", "/v1/collections", { headers: { "x-request-id": "trace-42" } });
    expect(echoed.headers["x-request-id"]).toBe("trace-42");
    const replaced = await http(server, "GET", "/nowhere", { headers: { "x-request-id": "bad id; <script>" } });
    expect(replaced.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.json.request_id).toBe(replaced.headers["x-request-id"]);
  });

  it("logs requests to its logger without query text", async () => {
    await http(server, "POST", "/v1/search", { body: { query: "zebra-unicorn-secret-words" } });
    const lines = server.logs.filter((l) => l.startsWith("info request"));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.at(-1)).toContain('"path":"/v1/search"');
    expect(server.logs.join("\n")).not.toContain("zebra-unicorn");
  });

  it("answers 503 with Retry-After when saturated, while probes still answer", async () => {
    const chat = await startSilentChat();
    const busy = await startTestServer({ indexDir: corpus.indexDir, settings: chat.settings }, { maxConcurrency: 1 });
    const running = runningRequest(busy);
    try {
      let res = await http(busy, "GET", "/v1/collections");
      // The running answer holds the only slot while it waits for the chat model.
      for (let i = 0; i < 200 && res.status !== 503; i++) {
        await new Promise((r) => setTimeout(r, 10));
        res = await http(busy, "GET", "/v1/collections");
      }
      expectError(res, 503, "OVERLOADED");
      expect(res.headers["retry-after"]).toBe("1");
      expect((await http(busy, "GET", "/healthz")).status).toBe(200);
    } finally {
      await chat.close();
      await running.response.catch(() => undefined);
      await busy.close();
    }
  });

  it("gives no slot to a request whose body is still arriving (issue 25 #11)", async () => {
    const busy = await startTestServer({ indexDir: corpus.indexDir }, { maxConcurrency: 1 });
    const stalled = stalledRequest(busy, "/v1/search");
    try {
      expect((await http(busy, "POST", "/v1/search", { body: { query: "citation" } })).status).toBe(200);
    } finally {
      stalled.abort();
      await busy.close();
    }
  });

  it("answers 504 when a request exceeds its deadline", async () => {
    const slow = await startTestServer({ indexDir: corpus.indexDir }, { requestTimeoutMs: 200 });
    try {
      const res = await stalledRequest(slow, "/v1/search").response;
      expect(res.status).toBe(504);
      expect(res.json.error.code).toBe("TIMEOUT");
      expect(res.headers["x-request-id"]).toBe(res.json.request_id);
    } finally {
      await slow.close();
    }
  });
});

describe("mutating tools with GROUNDKIT_API_TOKEN", () => {
  let s: TestServer;
  let c: Corpus;
  const auth = { authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    c = await makeCorpus();
    s = await startTestServer({ indexDir: c.indexDir, allowedRoots: [c.docs] }, { token: TOKEN });
  });
  afterAll(async () => {
    await s.close();
    c.cleanup();
  });
  afterEach(() => expect(s.logs.join("\n")).not.toContain(TOKEN));

  it("refuses ingest without the token, or with a wrong one (also on read routes)", async () => {
    const body = { inputs: [c.docs] };
    expectError(await http(s, "POST", "/v1/collections/default/ingest", { body }), 401, "UNAUTHORIZED");
    const wrong = { authorization: "Bearer nope" };
    expectError(await http(s, "POST", "/v1/collections/default/ingest", { body, headers: wrong }), 401, "UNAUTHORIZED");
    expectError(await http(s, "GET", "/v1/collections", { headers: wrong }), 401, "UNAUTHORIZED");
    expectError(await http(s, "DELETE", "/v1/collections/default/documents/x"), 401, "UNAUTHORIZED");
    expect((await http(s, "GET", "/v1/collections")).status).toBe(200);
  });

  it("ingests with the token; a search right after sees the new content", async () => {
    expect(await searchHits(s, "quokka")).toEqual([]);
    writeFileSync(join(c.docs, "animals.md"), "# Animals\n\nThe quokka is a small marsupial.\n");
    const res = await http(s, "POST", "/v1/collections/default/ingest", { body: { inputs: ["."] }, headers: auth });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ collection: "default", indexed: 1, unchanged: 3, failed: [] });
    const hits = await searchHits(s, "quokka");
    expect(hits).toHaveLength(1);
    expect(hits[0]!.citation.source).toBe(join(c.docs, "animals.md"));
  });

  it("sees content ingested by the CLI in another process, without restart", async () => {
    writeFileSync(join(c.docs, "birds.md"), "# Birds\n\nThe kakapo is a flightless parrot.\n");
    const cli = grk(["ingest", c.docs, "--index-dir", c.indexDir, "--json"], { cwd: c.dir });
    expect(cli.code, cli.stderr).toBe(0);
    const hits = await searchHits(s, "kakapo");
    expect(hits).toHaveLength(1);
  });

  it("creates a new collection by ingesting into it", async () => {
    const res = await http(s, "POST", "/v1/collections/fresh/ingest", { body: { inputs: ["guides"] }, headers: auth });
    expect(res.status, res.text).toBe(200);
    expect(res.json.indexed).toBe(1);
    expect((await searchHits(s, "install", { collection: "fresh" })).length).toBe(1);
  });

  it("reopens a collection deleted and re-created on disk by another process", async () => {
    expect((await searchHits(s, "install", { collection: "fresh" })).length).toBe(1);
    expect(grk(["collections", "delete", "fresh", "--index-dir", c.indexDir, "--yes"], { cwd: c.dir }).code).toBe(0);
    expectError(await http(s, "POST", "/v1/search", { body: { query: "install", collection: "fresh" } }), 404, "COLLECTION_NOT_FOUND");
    const again = grk(["ingest", join(c.docs, "notes.txt"), "--index-dir", c.indexDir, "--collection", "fresh"], { cwd: c.dir });
    expect(again.code, again.stderr).toBe(0);
    expect(await searchHits(s, "install", { collection: "fresh" })).toEqual([]);
    expect((await searchHits(s, "backups", { collection: "fresh" })).length).toBe(1);
  });

  it("serializes concurrent ingests into one collection", async () => {
    writeFileSync(join(c.docs, "one.md"), "# One\n\nThe first okapi file.\n");
    writeFileSync(join(c.docs, "two.md"), "# Two\n\nThe second okapi file.\n");
    const [a, b] = await Promise.all(
      ["one.md", "two.md"].map((f) => http(s, "POST", "/v1/collections/okapi/ingest", { body: { inputs: [f] }, headers: auth })),
    );
    expect([a!.status, b!.status]).toEqual([200, 200]);
    expect(a!.json.indexed + b!.json.indexed).toBe(2);
    expect((await searchHits(s, "okapi", { collection: "okapi" })).length).toBe(2);
  });

  it("refuses paths outside the allowed roots, including through a symlink", async () => {
    const outside = join(c.dir, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.md"), "# Secret\n\nnot for indexing\n");
    symlinkSync(outside, join(c.docs, "link-out"));
    for (const input of [outside, "../outside", join(c.docs, "link-out")]) {
      const res = await http(s, "POST", "/v1/collections/default/ingest", { body: { inputs: [input] }, headers: auth });
      expectError(res, 403, "PATH_ESCAPES_BASE");
      expect(res.text).not.toContain("secret.md");
    }
    expect(await searchHits(s, "indexing")).toEqual([]);
  });

  it("ingests a URL only when the server allows private networks (a server flag, not a request field)", async () => {
    const page = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end("The wombat digs burrows with its strong claws.\n");
    });
    await new Promise<void>((r) => page.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/wombat.txt`;
    const open = await startTestServer({ indexDir: c.indexDir, allowedRoots: [c.docs], allowPrivateNetwork: true }, { token: TOKEN });
    try {
      const refused = await http(s, "POST", "/v1/collections/web/ingest", { body: { inputs: [url] }, headers: auth });
      expect(refused.status, refused.text).toBe(200);
      expect(refused.json.failed).toEqual([expect.objectContaining({ source: url, code: "SSRF_BLOCKED" })]);
      const smuggled = await http(s, "POST", "/v1/collections/web/ingest", {
        body: { inputs: [url], allow_private_network: true },
        headers: auth,
      });
      expectError(smuggled, 400, "INVALID_ARGUMENT");
      const fetched = await http(open, "POST", "/v1/collections/web/ingest", { body: { inputs: [url] }, headers: auth });
      expect(fetched.json, fetched.text).toMatchObject({ indexed: 1, failed: [] });
      const [hit] = await searchHits(s, "wombat burrows", { collection: "web", verify: true });
      expect(hit!.citation).toMatchObject({ source: url, source_class: "snapshot" });
      expect(hit!.verification?.verdict).toBe("verified");
    } finally {
      await open.close();
      await new Promise((r) => page.close(r));
    }
  });

  it("refuses a file:// or other non-http(s) URL as URL_REFUSED, not as a path", async () => {
    const res = await http(s, "POST", "/v1/collections/web/ingest", { body: { inputs: ["file:///etc/passwd", "ftp://example.org/x"] }, headers: auth });
    expect(res.status, res.text).toBe(200);
    expect(res.json.failed.map((f: { code: string }) => f.code)).toEqual(["URL_REFUSED", "URL_REFUSED"]);
    expect(res.json.indexed).toBe(0);
  });

  it("deletes a document with the token; deleting it again is 404", async () => {
    const [hit] = await searchHits(s, "quokka");
    const path = `/v1/collections/default/documents/${hit!.document_id}`;
    const res = await http(s, "DELETE", path, { headers: auth });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ collection: "default", document_id: hit!.document_id, deleted: true });
    expect(await searchHits(s, "quokka")).toEqual([]);
    expectError(await http(s, "DELETE", path, { headers: auth }), 404, "DOCUMENT_NOT_FOUND");
  });

  it("lists the mutating routes in its OpenAPI document, with bearer security", async () => {
    const doc = (await http(s, "GET", "/openapi.json")).json;
    expect(doc.paths["/v1/collections/{collection}/ingest"].post.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths["/v1/collections/{collection}/documents/{document_id}"].delete.operationId).toBe("delete_document");
  });

  it("reports a drifted chunk without its text", async () => {
    writeFileSync(join(c.docs, "drift.md"), "# Drift\n\nThe original sentence about lighthouses.\n");
    await http(s, "POST", "/v1/collections/default/ingest", { body: { inputs: ["drift.md"] }, headers: auth });
    const [hit] = await searchHits(s, "lighthouses");
    writeFileSync(join(c.docs, "drift.md"), "# Drift\n\nA changed sentence about lighthouses!!\n");
    appendFileSync(join(c.docs, "drift.md"), "more\n");
    const res = await http(s, "GET", `/v1/collections/default/chunks/${hit!.chunk_id}?context_chars=50`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ verdict: "drifted", text: null, context: null });
  });
});
