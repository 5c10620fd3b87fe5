/**
 * Shared fixtures for the service tests: a small corpus ingested through the
 * library, an in-process server on 127.0.0.1, and a raw HTTP client that can
 * send any Host/Origin header (fetch may not).
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openCollection } from "../src/collection/index.js";
import { startRestServer, type RestServerOptions, type RunningServer } from "../src/service/rest-server.js";
import { createServiceContext, type ServiceContextOptions } from "../src/service/service-context.js";
import { afterAll, beforeAll } from "vitest";
import { tempDir } from "./support/cli.js";

export const TOKEN = "test-token-0123456789abcdef";

export interface Corpus {
  dir: string;
  docs: string;
  indexDir: string;
  cleanup: () => void;
}

/** A temp dir with docs/ (Markdown, text with an emoji) ingested into collection `default`. */
export async function makeCorpus(): Promise<Corpus> {
  const { dir, cleanup } = tempDir("grk-svc-");
  const docs = join(dir, "docs");
  mkdirSync(join(docs, "guides"), { recursive: true });
  writeFileSync(
    join(docs, "citations.md"),
    "# Citations\n\nEvery passage carries a citation with exact offsets.\n\n## Verification\n\n" +
      "A citation is checked by re-reading the source and comparing the hash of the cited text.\n",
  );
  writeFileSync(join(docs, "guides", "install.md"), "# Install\n\nRun npm ci to install the engine on Linux and macOS.\n");
  writeFileSync(join(docs, "notes.txt"), "Plain text notes 😀 about backups and snapshots.\nSecond line.\n");
  const indexDir = join(dir, ".groundkit");
  await ingest(indexDir, [docs]);
  return { dir, docs, indexDir, cleanup };
}

/** Ingest through the library (what `grk ingest` does). */
export async function ingest(
  indexDir: string,
  paths: string[],
  collection = "default",
  chunking: { chunkSize?: number; chunkOverlap?: number } = {},
): Promise<void> {
  const col = await openCollection({ indexDir, collection, create: true });
  try {
    await col.ingest(paths, chunking);
  } finally {
    await col.close();
  }
}

export interface TestServer extends RunningServer {
  logs: string[];
}

/** Start a server on an ephemeral 127.0.0.1 port; log lines are captured. */
export async function startTestServer(
  ctx: ServiceContextOptions,
  opts: Partial<Omit<RestServerOptions, "context" | "log">> = {},
): Promise<TestServer> {
  const logs: string[] = [];
  const log = {
    debug: (m: string, f?: Record<string, unknown>) => logs.push(`debug ${m} ${JSON.stringify(f ?? {})}`),
    info: (m: string, f?: Record<string, unknown>) => logs.push(`info ${m} ${JSON.stringify(f ?? {})}`),
    warn: (m: string, f?: Record<string, unknown>) => logs.push(`warn ${m} ${JSON.stringify(f ?? {})}`),
    error: (m: string, f?: Record<string, unknown>) => logs.push(`error ${m} ${JSON.stringify(f ?? {})}`),
  };
  const server = await startRestServer({
    context: createServiceContext({ ...ctx, mutating: opts.token !== undefined }),
    port: 0,
    log,
    ...opts,
  });
  return Object.assign(server, { logs });
}

/**
 * The corpus of {@link makeCorpus} served by a test server for a whole test file
 * (started in beforeAll, closed in afterAll); read its fields inside tests.
 */
export function servedCorpus(): { corpus: Corpus; server: TestServer } {
  const served = {} as { corpus: Corpus; server: TestServer };
  beforeAll(async () => {
    served.corpus = await makeCorpus();
    served.server = await startTestServer({ indexDir: served.corpus.indexDir });
  });
  afterAll(async () => {
    await served.server?.close();
    served.corpus?.cleanup();
  });
  return served;
}

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface HttpOptions {
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/** One HTTP request to the server, with full control over headers. */
export function http(server: RunningServer, method: string, path: string, opts: HttpOptions = {}): Promise<HttpResult> {
  const headers: Record<string, string> = { host: `127.0.0.1:${server.port}`, ...opts.headers };
  let payload: string | Buffer | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  if (payload !== undefined) headers["content-length"] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: server.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on("error", reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/**
 * Start a request whose body never completes (it holds a concurrency slot and
 * runs into the deadline). Resolves with the response, if any, when it comes.
 */
export function stalledRequest(server: RunningServer, path: string): { response: Promise<HttpResult>; abort: () => void } {
  let abort = () => {};
  const response = new Promise<HttpResult>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: server.port,
        method: "POST",
        path,
        headers: { host: `127.0.0.1:${server.port}`, "content-type": "application/json", "content-length": "1000" },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: JSON.parse(text) });
        });
      },
    );
    req.on("error", reject);
    req.write('{"query": "');
    abort = () => req.destroy();
  });
  response.catch(() => undefined);
  return { response, abort };
}

/**
 * A chat endpoint that reads each request and never answers until closed:
 * `answer` against it runs (holding its concurrency slot) for as long as the
 * test wants. `settings` configure a server's collections to use it.
 */
export async function startSilentChat(): Promise<{ settings: ServiceContextOptions["settings"]; close: () => Promise<void> }> {
  const silent = createServer((req) => req.resume());
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const { port } = silent.address() as AddressInfo;
  return {
    settings: { chat: { provider: "openai", base_url: `http://127.0.0.1:${port}/v1`, model: "silent", allow_private_network: true } },
    close: () =>
      new Promise<void>((resolve) => {
        silent.closeAllConnections();
        silent.close(() => resolve());
      }),
  };
}

/** A request whose handler is running (an answer waiting on {@link startSilentChat}'s model): it holds a slot until the chat closes. */
export function runningRequest(server: RunningServer): { response: Promise<HttpResult> } {
  const response = http(server, "POST", "/v1/answer", { body: { query: "backups and snapshots" } });
  response.catch(() => undefined);
  return { response };
}
