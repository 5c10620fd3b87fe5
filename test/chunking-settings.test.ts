/**
 * A collection's chunking is recorded at first ingest and kept by every later
 * ingest, whichever surface runs it (CLI, REST, MCP over HTTP, the library);
 * only an explicit request re-chunks, and the summary says so.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { decideChunking } from "../src/ingest/chunking-settings.js";
import { fingerprintOf } from "../src/ingest/ingest.js";
import { grk } from "./support/cli.js";
import { http, makeCorpus, startTestServer, TOKEN, type Corpus, type TestServer } from "./service-fixtures.js";

let corpus: Corpus;
let server: TestServer;

const paragraph = (i: number) => `Paragraph ${i} of the handbook explains one topic in a few sentences of plain words, enough to fill a line.`;

beforeAll(async () => {
  corpus = await makeCorpus();
  writeFileSync(join(corpus.docs, "handbook.md"), "# Handbook\n\n" + Array.from({ length: 60 }, (_, i) => paragraph(i)).join("\n\n") + "\n");
  server = await startTestServer({ indexDir: corpus.indexDir, allowedRoots: [corpus.docs] }, { token: TOKEN });
});
afterAll(async () => {
  await server?.close();
  corpus?.cleanup();
});

async function chunkCount(collection: string): Promise<number> {
  const col = await openCollection({ indexDir: corpus.indexDir, collection });
  try {
    return (await col.status()).chunks;
  } finally {
    await col.close();
  }
}

/** Chunks the docs give at 512/50, in a reference collection ingested with those settings explicitly. */
async function chunksAt512(): Promise<number> {
  const col = await openCollection({ indexDir: corpus.indexDir, collection: "ref", create: true });
  try {
    await col.ingest([corpus.docs], { chunkSize: 512, chunkOverlap: 50 });
    return (await col.status()).chunks;
  } finally {
    await col.close();
  }
}

function touchHandbook(n: number): void {
  // A real change, so every surface re-chunks the file instead of skipping it as unchanged.
  writeFileSync(join(corpus.docs, "handbook.md"), "# Handbook\n\n" + Array.from({ length: 60 + n }, (_, i) => paragraph(i)).join("\n\n") + "\n");
}

describe("chunking recorded per collection", () => {
  it("keeps the CLI's --chunk-size 512 through REST, MCP and library ingests; an explicit request re-chunks and says so", async () => {
    const cli = grk(["ingest", corpus.docs, "--index-dir", corpus.indexDir, "--collection", "c512", "--chunk-size", "512", "--chunk-overlap", "50", "--json"], {
      cwd: corpus.dir,
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout).chunking).toMatchObject({ chunk_size: 512, chunk_overlap: 50, rechunked: false, previous: null });
    const at512 = await chunkCount("c512");
    expect(at512).toBe(await chunksAt512());

    touchHandbook(1);
    const rest = await http(server, "POST", "/v1/collections/c512/ingest", {
      body: { inputs: ["."] },
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.json.chunking).toMatchObject({ chunk_size: 512, chunk_overlap: 50, rechunked: false });
    expect(await chunkCount("c512")).toBe(await chunksAt512());

    touchHandbook(2);
    const client = new Client({ name: "chunking-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", server.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    try {
      const res = (await client.callTool({ name: "ingest", arguments: { inputs: ["."], collection: "c512" } })) as CallToolResult;
      expect(res.isError ?? false).toBe(false);
      expect((res.structuredContent as { chunking: { chunk_size: number } }).chunking.chunk_size).toBe(512);
    } finally {
      await client.close();
    }
    expect(await chunkCount("c512")).toBe(await chunksAt512());

    const col = await openCollection({ indexDir: corpus.indexDir, collection: "c512" });
    try {
      expect((await col.status()).chunker).toEqual({ chunk_size: 512, chunk_overlap: 50, chunker_version: 1 });
      const again = await col.ingest([corpus.docs], { chunkSize: 2400, chunkOverlap: 200 });
      expect(again.chunking).toMatchObject({ chunk_size: 2400, rechunked: true, previous: { chunk_size: 512, chunk_overlap: 50 } });
      expect(again.indexed).toBeGreaterThan(0);
    } finally {
      await col.close();
    }
    expect(await chunkCount("c512")).toBeLessThan(at512);

    const status = grk(["status", "--index-dir", corpus.indexDir, "--collection", "c512"], { cwd: corpus.dir });
    expect(status.stdout).toContain("chunker size 2400 overlap 200");
  });

  it("prints the re-chunk in the CLI's text summary", () => {
    const args = ["ingest", corpus.docs, "--index-dir", corpus.indexDir, "--collection", "ctext"];
    expect(grk([...args, "--chunk-size", "600"], { cwd: corpus.dir }).code).toBe(0);
    const second = grk([...args, "--chunk-size", "800"], { cwd: corpus.dir });
    expect(second.stdout).toContain("re-chunked every document of this run: chunk size 600 -> 800");
  });

  it("re-chunks unchanged files when the chunker's rules version changes, and only then", () => {
    const settings = { chunkSize: 512, chunkOverlap: 50 };
    expect(fingerprintOf("h", "text/1", settings, 1)).toBe(fingerprintOf("h", "text/1", settings));
    expect(fingerprintOf("h", "text/1", settings, 2)).not.toBe(fingerprintOf("h", "text/1", settings, 1));
    expect(fingerprintOf("h", "text/1", { ...settings, chunkSize: 600 })).not.toBe(fingerprintOf("h", "text/1", settings));
  });

  it("takes a config file's chunk_size for a new collection through the real CLI, and keeps the recorded one after", () => {
    const config = join(corpus.dir, "chunk600.json");
    writeFileSync(config, JSON.stringify({ chunk_size: 600, chunk_overlap: 60 }));
    const args = ["ingest", corpus.docs, "--index-dir", corpus.indexDir, "--collection", "cconfig", "--json"];
    const first = grk([...args, "--config", config], { cwd: corpus.dir });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).chunking).toMatchObject({ chunk_size: 600, chunk_overlap: 60, rechunked: false });
    writeFileSync(config, JSON.stringify({ chunk_size: 900 }));
    const later = grk([...args, "--config", config], { cwd: corpus.dir });
    expect(JSON.parse(later.stdout).chunking).toMatchObject({ chunk_size: 600, chunk_overlap: 60, rechunked: false });
  });

  it("applies a config file's chunking to a new collection only (the decision)", () => {
    const recorded = { chunk_size: 512, chunk_overlap: 50, chunker_version: 1 };
    expect(decideChunking(null, {}, { chunkSize: 1000, chunkOverlap: 100 })).toMatchObject({ chunk_size: 1000, chunk_overlap: 100, rechunked: false });
    expect(decideChunking(recorded, {}, { chunkSize: 1000, chunkOverlap: 100 })).toMatchObject({ chunk_size: 512, rechunked: false });
    expect(decideChunking(recorded, { chunkSize: 700 })).toMatchObject({ chunk_size: 700, chunk_overlap: 50, rechunked: true });
    expect(decideChunking({ ...recorded, chunker_version: 0 }, {})).toMatchObject({ chunk_size: 512, rechunked: true });
    expect(() => decideChunking(recorded, { chunkOverlap: 600 })).toThrow(/overlap|chunkOverlap/i);
  });
});
