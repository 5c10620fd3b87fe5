/**
 * Issue 25 item 4: twelve aborted unauthenticated requests against a slow PDF
 * stalled verification of every PDF/HTML source. A real server on 127.0.0.1;
 * the hostile client connects from 127.0.0.2 and asks to verify citations of
 * two PDFs swapped after ingest for 2^20 nested form XObjects (minutes to
 * extract); the normal client (127.0.0.1) verifies another PDF and searches
 * with `verify: true` (what the web page does) while the hostile requests are
 * still waiting, then the hostile client hangs up: its running extraction is
 * abandoned and its queued one dropped, and twelve requests cost one
 * extraction. Orderings and counts only, no time thresholds.
 */
import { request, type ClientRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Citation } from "../src/core/contracts.js";
import { getExtractionCache } from "../src/extract/extraction-cache.js";
import { getExtractionPool } from "../src/extract/extraction-pool.js";
import { ingest, startTestServer, type TestServer } from "./service-fixtures.js";
import { tempDir } from "./support/cli.js";
import { nestedFormsPdf } from "./support/extraction-bombs.js";
import { makePdf } from "./support/pdf-fixtures.js";

let work: { dir: string; cleanup: () => void };
let server: TestServer;
const citations = new Map<string, Citation>();

/** The fields of the answers this test reads. */
interface Answer {
  verdict?: string;
  results: { citation: Citation; verification?: { verdict: string } }[];
}

/** POST a JSON body from `localAddress`; the request object too, so the caller can hang up. */
function post(path: string, body: unknown, localAddress: string): { req: ClientRequest; done: Promise<{ status: number; json: Answer }> } {
  const url = new URL(path, server.url);
  const payload = JSON.stringify(body);
  const req = request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: "POST",
    localAddress,
    agent: false,
    headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
  });
  const done = new Promise<{ status: number; json: Answer }>((resolve, reject) => {
    req.once("error", reject);
    req.once("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Answer }));
    });
  });
  req.end(payload);
  return { req, done };
}

async function inFlight(): Promise<number> {
  const res = await fetch(`${server.url}/metrics`);
  const line = (await res.text()).split("\n").find((l) => l.startsWith("groundkit_http_requests_in_flight"));
  return Number(line?.split(" ").pop());
}

async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await ready())) await new Promise((resolve) => setTimeout(resolve, 10));
}

beforeAll(async () => {
  work = tempDir("grk-hostile-");
  const docs = join(work.dir, "docs");
  mkdirSync(docs);
  const files: Record<string, string> = {
    "slow-a.pdf": "alphaword lives in the first slow file",
    "slow-b.pdf": "betaword lives in the second slow file",
    "ok.pdf": "gammaword lives in the normal client's file",
    "warm.pdf": "deltaword warms the extractor up",
  };
  for (const [name, line] of Object.entries(files)) writeFileSync(join(docs, name), await makePdf([[line]]));
  const indexDir = join(work.dir, ".groundkit");
  await ingest(indexDir, [docs]);
  // Ten minutes to extract one file: the slow files must still be running when the test hangs up,
  // however slow the machine (the default limit, 30 s, would answer the hostile requests first).
  server = await startTestServer({ indexDir, settings: { extraction: { timeoutMs: 600_000 } } });
  for (const [name, line] of Object.entries(files)) {
    const res = await post("/v1/search", { query: line.split(" ")[0], top_k: 1 }, "127.0.0.1").done;
    citations.set(name, res.json.results[0]!.citation);
  }
  // The slow files replace the ingested ones: verifying them now re-extracts the slow bytes.
  const slow = nestedFormsPdf(20);
  writeFileSync(join(docs, "slow-a.pdf"), slow);
  writeFileSync(join(docs, "slow-b.pdf"), slow.slice(0, slow.length - 1));
  // Load the PDF extractor once, as any server that verified a PDF before has.
  expect((await post("/v1/verify", { citation: citations.get("warm.pdf") }, "127.0.0.1").done).json.verdict).toBe("verified");
});
afterAll(async () => {
  await server?.close();
  work?.cleanup();
});

describe("verification under hostile clients", () => {
  it("stays responsive for a normal client while hostile requests wait, and drops their work when they hang up", { timeout: 120_000 }, async () => {
    const before = { pool: getExtractionPool().stats(), cache: getExtractionCache().stats() };
    const hostile = Array.from({ length: 12 }, (_, i) =>
      post("/v1/verify", { citation: citations.get(i % 2 === 0 ? "slow-a.pdf" : "slow-b.pdf") }, "127.0.0.2"),
    );
    let hostileAnswered = 0;
    for (const h of hostile) h.done.then(() => hostileAnswered++, () => undefined);
    // Every hostile request is in the server before the normal client asks.
    await until(async () => (await inFlight()) === 12);

    const verified = await post("/v1/verify", { citation: citations.get("ok.pdf") }, "127.0.0.1").done;
    expect(verified.json).toMatchObject({ verdict: "verified" });
    const searched = await post("/v1/search", { query: "gammaword", top_k: 1, verify: true }, "127.0.0.1").done;
    expect(searched.json.results[0]!.verification).toMatchObject({ verdict: "verified" });
    expect(hostileAnswered).toBe(0);

    const started = getExtractionPool().stats().started - before.pool.started;
    // One slow extraction for six requests of slow-a (slow-b waits its turn), one for ok.pdf (the search reused it).
    expect(started).toBe(2);
    // The client hangs up its queued requests (slow-b) first, then its running ones (slow-a). The other
    // order races: slow-a's lane, freed, may start slow-b before the server sees slow-b's sockets close,
    // and slow-b is then abandoned while its worker loads instead of dropped from the queue.
    for (const h of hostile) h.done.catch(() => undefined);
    for (const [i, h] of hostile.entries()) if (i % 2 === 1) h.req.destroy();
    await until(() => getExtractionPool().stats().droppedQueued - before.pool.droppedQueued === 1);
    for (const [i, h] of hostile.entries()) if (i % 2 === 0) h.req.destroy();
    await until(() => getExtractionPool().stats().abandonedRunning - before.pool.abandonedRunning === 1);
    expect(getExtractionPool().stats().droppedQueued - before.pool.droppedQueued).toBe(1);
    expect(getExtractionCache().stats().hits - before.cache.hits).toBe(1);

    // Nothing of theirs is left running: the next check is answered (from the cache, no new extraction).
    expect((await post("/v1/verify", { citation: citations.get("warm.pdf") }, "127.0.0.1").done).json.verdict).toBe("verified");
    expect(getExtractionPool().stats().started - before.pool.started).toBe(2);
    expect(hostileAnswered).toBe(0);
  });

  it("abandons the extraction of an MCP call whose client went away", { timeout: 120_000 }, async () => {
    const before = getExtractionPool().stats();
    const client = new Client({ name: "groundkit-cancel-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", server.url)));
    const call = client.callTool({ name: "verify_citation", arguments: { citation: citations.get("slow-a.pdf") } });
    call.catch(() => undefined);
    await until(() => getExtractionPool().stats().started - before.started === 1);
    // Closing the transport aborts the call's HTTP request: the server sees its connection go.
    await client.close();
    await until(() => getExtractionPool().stats().abandonedRunning - before.abandonedRunning === 1);
    await expect(call).rejects.toThrow();
  });
});
