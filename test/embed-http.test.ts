/**
 * The Ollama and OpenAI-compatible embedding providers against real HTTP
 * servers on 127.0.0.1 speaking each API's wire protocol.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { createOllamaProvider } from "../src/embed/ollama.js";
import { createOpenAIProvider, openAIEmbeddingsUrl } from "../src/embed/openai.js";
import { createEmbeddingProvider, parseEmbeddingConfig } from "../src/embed/registry.js";

interface Seen {
  url: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON value, or a raw string sent as-is. */
  json?: unknown;
  raw?: string;
  /** Never answer (the client must time out). */
  hang?: boolean;
  delayMs?: number;
}

interface Server {
  origin: string;
  seen: Seen[];
  maxInFlight: () => number;
  close: () => Promise<void>;
}

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function startServer(handle: (seen: Seen, n: number) => Reply): Promise<Server> {
  const seen: Seen[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const entry: Seen = { url: req.url ?? "", headers: req.headers, body: text === "" ? {} : JSON.parse(text) };
      seen.push(entry);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const reply = handle(entry, seen.length);
      if (reply.hang === true) return;
      setTimeout(() => {
        inFlight--;
        res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        res.end(reply.raw ?? JSON.stringify(reply.json ?? {}));
      }, reply.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const s: Server = {
    origin: `http://127.0.0.1:${port}`,
    seen,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(s);
  return s;
}

/** A deterministic 4-d vector from a text, so tests can tell which vector belongs to which input. */
function fakeVector(text: string): number[] {
  return [text.length, 1, (text.codePointAt(0) ?? 0) % 7, 2];
}

function unit(v: number[]): number[] {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function expectClose(actual: Float32Array, expected: number[]): void {
  expect(actual.length).toBe(expected.length);
  expected.forEach((x, i) => expect(actual[i]).toBeCloseTo(x, 6));
}

function ollamaReply(seen: Seen): Reply {
  const input = seen.body["input"] as string[];
  return { json: { model: seen.body["model"], embeddings: input.map(fakeVector) } };
}

function openaiReply(seen: Seen, opts: { reverse?: boolean } = {}): Reply {
  const input = seen.body["input"] as string[];
  const data = input.map((t, index) => ({ object: "embedding", index, embedding: fakeVector(t) }));
  if (opts.reverse === true) data.reverse();
  return { json: { object: "list", data, model: seen.body["model"], usage: { prompt_tokens: 1, total_tokens: 1 } } };
}

const fast = { baseDelayMs: 1, maxDelayMs: 4 };

async function rejection(p: Promise<unknown>): Promise<GroundkitError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GroundkitError);
  return err as GroundkitError;
}

describe("ollama provider", () => {
  it("batches in order, applies prefixes and returns unit vectors", async () => {
    const server = await startServer((seen) => ollamaReply(seen));
    const provider = await createOllamaProvider({
      base_url: server.origin,
      model: "nomic-embed-text",
      dimensions: 4,
      batch_size: 2,
      query_prefix: "search_query: ",
      document_prefix: "search_document: ",
      allow_private_network: true,
    });
    expect(provider.identity).toEqual({
      provider: "ollama",
      model: "nomic-embed-text",
      dimensions: 4,
      query_prefix: "search_query: ",
      document_prefix: "search_document: ",
    });
    const texts = ["a", "bb", "ccc", "dddd", "eeeee"];
    const progress: Array<[number, number]> = [];
    const vectors = await provider.embedDocuments(texts, (done, total) => progress.push([done, total]));
    expect(server.seen.map((s) => s.url)).toEqual(["/api/embed", "/api/embed", "/api/embed"]);
    expect(server.seen.map((s) => (s.body["input"] as string[]).length)).toEqual([2, 2, 1]);
    expect(server.seen[0]!.body["model"]).toBe("nomic-embed-text");
    expect(server.seen[0]!.body["input"]).toEqual(["search_document: a", "search_document: bb"]);
    texts.forEach((t, i) => expectClose(vectors[i]!, unit(fakeVector(`search_document: ${t}`))));
    expect(progress.at(-1)).toEqual([5, 5]);

    const q = await provider.embedQuery("why");
    expect(server.seen.at(-1)!.body["input"]).toEqual(["search_query: why"]);
    expectClose(q, unit(fakeVector("search_query: why")));
  });

  it("keeps at most `concurrency` requests in flight", async () => {
    const server = await startServer((seen) => ({ ...ollamaReply(seen), delayMs: 15 }));
    const provider = await createOllamaProvider({
      base_url: server.origin,
      model: "m",
      dimensions: 4,
      batch_size: 1,
      concurrency: 2,
      allow_private_network: true,
    });
    const vectors = await provider.embedDocuments(["a", "b", "c", "d", "e", "f"]);
    expect(vectors).toHaveLength(6);
    expect(server.seen).toHaveLength(6);
    expect(server.maxInFlight()).toBeLessThanOrEqual(2);
  });

  it("learns the width from one probe request when dimensions are not configured", async () => {
    const server = await startServer((seen) => ollamaReply(seen));
    const provider = await createOllamaProvider({ base_url: server.origin, model: "m", allow_private_network: true });
    expect(provider.identity.dimensions).toBe(4);
    expect(server.seen).toHaveLength(1);
  });

  it("retries a 429 and then succeeds", async () => {
    const server = await startServer((seen, n) =>
      n === 1 ? { status: 429, json: { error: "busy" } } : ollamaReply(seen),
    );
    const provider = await createOllamaProvider({
      base_url: server.origin,
      model: "m",
      dimensions: 4,
      allow_private_network: true,
      retry: fast,
    });
    const [v] = await provider.embedDocuments(["hello"]);
    expectClose(v!, unit(fakeVector("hello")));
    expect(server.seen).toHaveLength(2);
  });

  it("retries a 503 with the default backoff through the registry", async () => {
    const server = await startServer((seen, n) => (n === 1 ? { status: 503 } : ollamaReply(seen)));
    const provider = await createEmbeddingProvider({
      provider: "ollama",
      base_url: server.origin,
      model: "m",
      dimensions: 4,
      allow_private_network: true,
    });
    await expect(provider.embedQuery("x")).resolves.toHaveLength(4);
    expect(server.seen).toHaveLength(2);
  });

  it("honours a server's Retry-After: one that is too long fails at once (regression: headers were dropped)", async () => {
    const server = await startServer(() => ({ status: 429, headers: { "retry-after": "3600" }, json: { error: "slow down" } }));
    const provider = await createOllamaProvider({
      base_url: server.origin,
      model: "m",
      dimensions: 4,
      allow_private_network: true,
      retry: fast,
    });
    const err = await rejection(provider.embedDocuments(["x"]));
    expect(err.code).toBe("EMBEDDING_FAILED");
    expect(err.message).toContain("Retry-After 3600");
    expect(server.seen).toHaveLength(1);
  });

  it("gives up after max_attempts on persistent 500s and says so", async () => {
    const server = await startServer(() => ({ status: 500, json: { error: "boom" } }));
    const provider = await createOllamaProvider({
      base_url: server.origin,
      model: "m",
      dimensions: 4,
      max_attempts: 3,
      allow_private_network: true,
      retry: fast,
    });
    const err = await rejection(provider.embedDocuments(["x"]));
    expect(err.code).toBe("EMBEDDING_FAILED");
    expect(err.message).toContain("after 3 attempts");
    expect(err.message).toContain("HTTP 500");
    expect(server.seen).toHaveLength(3);
  });

  it("does not retry a 400", async () => {
    const server = await startServer(() => ({ status: 400, json: { error: "bad model" } }));
    const provider = await createOllamaProvider({
      base_url: server.origin,
      model: "m",
      dimensions: 4,
      allow_private_network: true,
      retry: fast,
    });
    const err = await rejection(provider.embedQuery("x"));
    expect(err.message).toContain("after 1 attempt: HTTP 400");
    expect(server.seen).toHaveLength(1);
  });

  it("times out a hanging server per attempt, bounded by max_attempts", async () => {
    const server = await startServer(() => ({ hang: true }));
    const provider = await createOllamaProvider({
      base_url: server.origin,
      model: "m",
      dimensions: 4,
      timeout_ms: 100,
      max_attempts: 2,
      allow_private_network: true,
      retry: fast,
    });
    const err = await rejection(provider.embedQuery("x"));
    expect(err.code).toBe("EMBEDDING_FAILED");
    expect(err.message).toContain("after 2 attempts: timed out");
    expect(server.seen).toHaveLength(2);
  });

  it("refuses vectors of the wrong width", async () => {
    const server = await startServer(() => ({ json: { embeddings: [[1, 2, 3]] } }));
    const provider = await createOllamaProvider({
      base_url: server.origin,
      model: "m",
      dimensions: 4,
      allow_private_network: true,
    });
    const err = await rejection(provider.embedQuery("x"));
    expect(err.code).toBe("EMBEDDING_FAILED");
    expect(err.message).toContain("3 numbers");
    expect(err.message).toContain("expected 4");
  });

  it("refuses non-finite values (null, overflow) and all-zero vectors", async () => {
    for (const raw of ['{"embeddings":[[1,null,0,0]]}', '{"embeddings":[[1,1e400,0,0]]}', '{"embeddings":[[1,1e39,0,0]]}']) {
      const server = await startServer(() => ({ raw }));
      const provider = await createOllamaProvider({
        base_url: server.origin,
        model: "m",
        dimensions: 4,
        allow_private_network: true,
      });
      const err = await rejection(provider.embedQuery("x"));
      expect(err.code).toBe("EMBEDDING_FAILED");
      expect(err.message).toContain("non-finite value at position 1");
    }
    const zero = await startServer(() => ({ json: { embeddings: [[0, 0, 0, 0]] } }));
    const provider = await createOllamaProvider({ base_url: zero.origin, model: "m", dimensions: 4, allow_private_network: true });
    expect((await rejection(provider.embedQuery("x"))).message).toContain("all-zero");
  });

  it("refuses a reply with the wrong number of vectors or no embeddings", async () => {
    const server = await startServer((seen, n) =>
      n === 1 ? { json: { embeddings: [[1, 0, 0, 0]] } } : { json: { error: "nope" } },
    );
    const provider = await createOllamaProvider({
      base_url: server.origin,
      model: "m",
      dimensions: 4,
      allow_private_network: true,
    });
    expect((await rejection(provider.embedDocuments(["a", "b"]))).message).toContain("1 vectors for 2 texts");
    expect((await rejection(provider.embedDocuments(["a"]))).message).toContain('without an "embeddings" array');
  });

  it("refuses a loopback endpoint unless allow_private_network is set, without sending anything", async () => {
    const server = await startServer((seen) => ollamaReply(seen));
    const provider = createOllamaProvider({ base_url: server.origin, model: "m", dimensions: 4 });
    const err = await rejection(provider.then((p) => p.embedQuery("x")));
    expect(err.code).toBe("SSRF_BLOCKED");
    expect(err.message).toContain("allow_private_network: true");
    expect(server.seen).toHaveLength(0);
  });
});

describe("openai-compatible provider", () => {
  const KEY = "sk-test-7f3a9c2e5b1d4a8f6e0c";

  it("sends the key as Bearer, orders data by index, and sends dimensions when configured", async () => {
    const server = await startServer((seen) => openaiReply(seen, { reverse: true }));
    const provider = await createOpenAIProvider({
      base_url: `${server.origin}/v1`,
      model: "text-embedding-3-small",
      api_key_env: "GRK_TEST_OPENAI_KEY",
      env: { GRK_TEST_OPENAI_KEY: KEY },
      dimensions: 4,
      batch_size: 3,
      allow_private_network: true,
    });
    const texts = ["one", "two words", "three", "four four", "5"];
    const vectors = await provider.embedDocuments(texts);
    texts.forEach((t, i) => expectClose(vectors[i]!, unit(fakeVector(t))));
    expect(server.seen.map((s) => s.url)).toEqual(["/v1/embeddings", "/v1/embeddings"]);
    expect(server.seen.every((s) => s.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(server.seen[0]!.body).toEqual({
      model: "text-embedding-3-small",
      input: ["one", "two words", "three"],
      encoding_format: "float",
      dimensions: 4,
    });
    expect(JSON.stringify(provider.identity)).not.toContain(KEY);
  });

  it("sends no Authorization header and no dimensions when none are configured", async () => {
    const server = await startServer((seen) => openaiReply(seen));
    const provider = await createOpenAIProvider({ base_url: server.origin, model: "m", allow_private_network: true });
    expect(provider.identity.dimensions).toBe(4);
    expect(server.seen[0]!.url).toBe("/v1/embeddings");
    expect(server.seen[0]!.headers.authorization).toBeUndefined();
    expect(server.seen[0]!.body["dimensions"]).toBeUndefined();
  });

  it("never puts the API key in an error message, detail or cause", async () => {
    const cases: Array<(seen: Seen) => Reply> = [
      () => ({ status: 401, json: { error: { message: `Incorrect API key provided: ${KEY}` } } }),
      () => ({ status: 500, raw: `upstream said ${KEY}` }),
      () => ({ raw: `not json ${KEY}` }),
      () => ({ json: { data: "echo " + KEY } }),
    ];
    for (const handle of cases) {
      const server = await startServer(handle);
      const provider = await createOpenAIProvider({
        base_url: server.origin,
        model: "m",
        dimensions: 4,
        api_key_env: "GRK_TEST_OPENAI_KEY",
        env: { GRK_TEST_OPENAI_KEY: KEY },
        max_attempts: 2,
        allow_private_network: true,
        retry: fast,
      });
      const err = await rejection(provider.embedQuery("x"));
      expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
      const everything = [
        err.message,
        JSON.stringify(err),
        JSON.stringify(err.detail ?? {}),
        String(err.cause),
        err.stack ?? "",
      ].join("\n");
      expect(everything).not.toContain(KEY);
    }
  });

  it("a missing key variable is a config error naming the variable, not a request", async () => {
    const server = await startServer((seen) => openaiReply(seen));
    const err = await rejection(
      createOpenAIProvider({
        base_url: server.origin,
        model: "m",
        api_key_env: "GRK_TEST_UNSET_KEY",
        env: {},
        allow_private_network: true,
      }),
    );
    expect(err.code).toBe("INVALID_CONFIG");
    expect(err.message).toContain("GRK_TEST_UNSET_KEY");
    expect(server.seen).toHaveLength(0);
  });

  it("reads the key from process.env through the registry", async () => {
    const server = await startServer((seen) => openaiReply(seen));
    process.env["GRK_TEST_REGISTRY_KEY"] = KEY;
    try {
      const provider = await createEmbeddingProvider(
        parseEmbeddingConfig({
          provider: "openai",
          base_url: server.origin,
          model: "m",
          dimensions: 4,
          api_key_env: "GRK_TEST_REGISTRY_KEY",
          allow_private_network: true,
        }),
      );
      await provider.embedQuery("x");
      expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    } finally {
      delete process.env["GRK_TEST_REGISTRY_KEY"];
    }
  });

  it("refuses duplicate or out-of-range indices and a private endpoint without permission", async () => {
    const server = await startServer((seen) => ({
      json: { data: (seen.body["input"] as string[]).map((t) => ({ index: 0, embedding: fakeVector(t) })) },
    }));
    const provider = await createOpenAIProvider({
      base_url: server.origin,
      model: "m",
      dimensions: 4,
      allow_private_network: true,
    });
    expect((await rejection(provider.embedDocuments(["a", "b"]))).message).toContain("repeated or out-of-range index");

    const blocked = await rejection(createOpenAIProvider({ base_url: server.origin, model: "m", dimensions: 4 }).then((p) => p.embedQuery("x")));
    expect(blocked.code).toBe("SSRF_BLOCKED");
  });

  it("builds the endpoint from either form of base_url", () => {
    expect(openAIEmbeddingsUrl("https://api.openai.com")).toBe("https://api.openai.com/v1/embeddings");
    expect(openAIEmbeddingsUrl("https://api.openai.com/v1")).toBe("https://api.openai.com/v1/embeddings");
    expect(openAIEmbeddingsUrl("https://api.openai.com/v1/")).toBe("https://api.openai.com/v1/embeddings");
    expect(openAIEmbeddingsUrl("http://host:8000/proxy")).toBe("http://host:8000/proxy/v1/embeddings");
  });
});

describe("embedding config", () => {
  it("accepts each provider and rejects unknown keys, bad URLs and key values in api_key_env", () => {
    expect(parseEmbeddingConfig({ provider: "local" })).toEqual({ provider: "local" });
    expect(parseEmbeddingConfig({ provider: "onnx", model_dir: "m", pooling: "cls" }).provider).toBe("onnx");
    expect(() => parseEmbeddingConfig({ provider: "local", modle: "x" })).toThrow(/INVALID|modle|Unrecognized/i);
    expect(() => parseEmbeddingConfig({ provider: "ollama", base_url: "ftp://x", model: "m" })).toThrow(/base_url/);
    expect(() =>
      parseEmbeddingConfig({ provider: "openai", base_url: "https://x", model: "m", api_key_env: "sk-abc-123" }),
    ).toThrow(/api_key_env/);
    expect(() => parseEmbeddingConfig({ provider: "cohere" })).toThrow(GroundkitError);
  });
});
