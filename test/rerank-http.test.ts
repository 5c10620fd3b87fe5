/**
 * The HTTP reranker against real servers on 127.0.0.1 speaking TEI's
 * `POST /rerank` and Cohere's `POST /v1/rerank` wire formats.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { createHttpReranker, rerankUrl } from "../src/retrieve/rerank/http-reranker.js";
import { sigmoid } from "../src/retrieve/rerank/reranker.js";
import { createReranker, parseRerankerConfig } from "../src/retrieve/rerank/registry.js";

interface Seen {
  url: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

interface Reply {
  status?: number;
  json?: unknown;
}

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function startServer(handle: (seen: Seen, n: number) => Reply): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry: Seen = { url: req.url ?? "", headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
      seen.push(entry);
      const reply = handle(entry, seen.length);
      res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply.json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A toy relevance: share of query words found in the passage. */
function overlap(query: string, passage: string): number {
  const q = new Set(query.split(" "));
  const p = new Set(passage.split(" "));
  return [...q].filter((w) => p.has(w)).length / q.size;
}

/** TEI answers sorted by score, best first, as the real server does. */
function teiReply(seen: Seen): Reply {
  const texts = seen.body["texts"] as string[];
  const query = seen.body["query"] as string;
  const raw = seen.body["raw_scores"] === true;
  return {
    json: texts
      .map((t, index) => ({ index, score: raw ? overlap(query, t) * 6 - 3 : overlap(query, t) }))
      .sort((a, b) => b.score - a.score),
  };
}

function cohereReply(seen: Seen): Reply {
  const docs = seen.body["documents"] as string[];
  const query = seen.body["query"] as string;
  const results = docs
    .map((d, index) => ({ index, relevance_score: overlap(query, d) }))
    .sort((a, b) => b.relevance_score - a.relevance_score)
    .slice(0, seen.body["top_n"] as number);
  return { json: { id: "x", results, meta: { api_version: { version: "1" } } } };
}

const fast = { baseDelayMs: 1, maxDelayMs: 4 };
const KEY = "co-test-c0ffee1234abcd";

async function failure(p: Promise<unknown>): Promise<GroundkitError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GroundkitError);
  return err as GroundkitError;
}

describe("TEI-style reranker", () => {
  it("posts {query, texts} to /rerank and returns scores in passage order, batched", async () => {
    const server = await startServer(teiReply);
    const r = createHttpReranker({ style: "tei", base_url: server.origin, batch_size: 2, allow_private_network: true });
    const passages = ["red car", "cat mat", "the cat", "nothing here", "cat on mat"];
    const scores = await r.rerank("cat mat", passages);
    expect(scores).toEqual([0, 1, 0.5, 0, 1]);
    expect(server.seen.map((s) => s.url)).toEqual(["/rerank", "/rerank", "/rerank"]);
    expect(server.seen[0]!.body).toMatchObject({ query: "cat mat", texts: ["red car", "cat mat"], raw_scores: false });
    expect(r.identity).toBe(`tei:${server.origin}/rerank`);
  });

  it("applies the sigmoid when configured for raw logits", async () => {
    const server = await startServer(teiReply);
    const r = createHttpReranker({ style: "tei", base_url: server.origin, scores: "logit", allow_private_network: true });
    const scores = await r.rerank("cat mat", ["cat mat", "red car"]);
    expect(server.seen[0]!.body["raw_scores"]).toBe(true);
    expect(scores[0]).toBeCloseTo(sigmoid(3), 10);
    expect(scores[1]).toBeCloseTo(sigmoid(-3), 10);
  });

  it("refuses scores outside 0..1, missing passages and non-finite values", async () => {
    const replies: Reply[] = [
      { json: [{ index: 0, score: 3.2 }] },
      { json: [{ index: 0, score: 0.5 }] },
      { json: [{ index: 0, score: null }, { index: 1, score: 0.1 }] },
      { json: { results: [] } },
    ];
    for (const reply of replies) {
      const server = await startServer(() => reply);
      const r = createHttpReranker({ style: "tei", base_url: server.origin, allow_private_network: true });
      const err = await failure(r.rerank("q", ["a", "b"].slice(0, reply === replies[0] ? 1 : 2)));
      expect(err.code).toBe("RERANK_FAILED");
    }
  });

  it("retries a 429 then succeeds; gives up on persistent 500s", async () => {
    const flaky = await startServer((seen, n) => (n === 1 ? { status: 429 } : teiReply(seen)));
    const r = createHttpReranker({ style: "tei", base_url: flaky.origin, allow_private_network: true, retry: fast });
    expect(await r.rerank("cat", ["cat"])).toEqual([1]);
    expect(flaky.seen).toHaveLength(2);

    const broken = await startServer(() => ({ status: 500 }));
    const r2 = createHttpReranker({
      style: "tei",
      base_url: broken.origin,
      max_attempts: 2,
      allow_private_network: true,
      retry: fast,
    });
    const err = await failure(r2.rerank("cat", ["cat"]));
    expect(err.code).toBe("RERANK_FAILED");
    expect(err.message).toContain("after 2 attempts: HTTP 500");
    expect(broken.seen).toHaveLength(2);
  });

  it("refuses a loopback endpoint without allow_private_network", async () => {
    const server = await startServer(teiReply);
    const err = await failure(createHttpReranker({ style: "tei", base_url: server.origin }).rerank("q", ["p"]));
    expect(err.code).toBe("SSRF_BLOCKED");
    expect(server.seen).toHaveLength(0);
  });
});

describe("Cohere-style reranker", () => {
  it("posts {model, query, documents, top_n} to /v1/rerank with the key as Bearer", async () => {
    const server = await startServer(cohereReply);
    const r = createHttpReranker({
      style: "cohere",
      base_url: server.origin,
      model: "rerank-english-v3.0",
      api_key_env: "GRK_TEST_COHERE_KEY",
      env: { GRK_TEST_COHERE_KEY: KEY },
      allow_private_network: true,
    });
    const scores = await r.rerank("cat mat", ["red car", "cat mat", "the cat"]);
    expect(scores).toEqual([0, 1, 0.5]);
    expect(server.seen[0]!.url).toBe("/v1/rerank");
    expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.seen[0]!.body).toEqual({
      model: "rerank-english-v3.0",
      query: "cat mat",
      documents: ["red car", "cat mat", "the cat"],
      top_n: 3,
    });
    expect(r.identity).not.toContain(KEY);
  });

  it("never puts the key in an error", async () => {
    const server = await startServer(() => ({ status: 401, json: { message: `invalid api token ${KEY}` } }));
    const r = createHttpReranker({
      style: "cohere",
      base_url: server.origin,
      model: "m",
      api_key_env: "GRK_TEST_COHERE_KEY",
      env: { GRK_TEST_COHERE_KEY: KEY },
      allow_private_network: true,
    });
    const err = await failure(r.rerank("q", ["p"]));
    expect([err.message, JSON.stringify(err), JSON.stringify(err.detail), String(err.cause), err.stack].join("\n")).not.toContain(KEY);
  });

  it("is created through the registry and validates its config", async () => {
    const server = await startServer(cohereReply);
    const r = await createReranker(
      parseRerankerConfig({ provider: "http", style: "cohere", base_url: `${server.origin}/v1`, model: "m", allow_private_network: true }),
    );
    expect(await r.rerank("cat", ["cat", "dog"])).toEqual([1, 0]);
    expect(server.seen[0]!.url).toBe("/v1/rerank");

    expect(() => parseRerankerConfig({ provider: "http", style: "cohere", base_url: "http://x" })).toThrow(/model/);
    expect(() => parseRerankerConfig({ provider: "http", style: "tei", base_url: "http://x", api_key_env: "abc-123" })).toThrow(
      /api_key_env/,
    );
    expect(() => parseRerankerConfig({ provider: "onnx" })).toThrow(GroundkitError);
  });

  it("builds endpoints from either form of base_url", () => {
    expect(rerankUrl("cohere", "https://api.cohere.com")).toBe("https://api.cohere.com/v1/rerank");
    expect(rerankUrl("cohere", "https://api.cohere.com/v2")).toBe("https://api.cohere.com/v2/rerank");
    expect(rerankUrl("tei", "http://tei:8080/")).toBe("http://tei:8080/rerank");
  });
});
