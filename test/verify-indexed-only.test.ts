/**
 * Verification reads only sources the collection indexed (issue 12, item 2).
 * A `.env` under the base dir that was never indexed is probed with hand-made
 * citations (a made-up document id, the id its path would get, the id of
 * another document, a real citation with its source swapped, guessed hashes,
 * absurd offsets). On every surface (library, CLI, REST, MCP over HTTP and
 * stdio) each probe gets the same `unresolvable` answer whatever the file
 * holds, and whether it exists at all: the answer is no oracle for its content,
 * its length or its existence. A real citation still verifies on each surface.
 */
import { createHash } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type Collection } from "../src/collection/index.js";
import type { Citation } from "../src/core/contracts.js";
import { documentIdFor } from "../src/core/ids.js";
import { getExtractorRegistry } from "../src/extract/registry.js";
import { CLI, grk } from "./support/cli.js";
import { http, makeCorpus, startTestServer, type Corpus, type TestServer } from "./service-fixtures.js";

const hash = (s: string) => createHash("sha256").update(s).digest("hex");

/** What the never-indexed file holds in each run: two secrets of different lengths, then no file. */
const STATES: Array<string | undefined> = ["API_KEY=abc123\n", "API_KEY=zq\n", undefined];
const GUESS = "API_KEY=a";

let corpus: Corpus;
let envPath: string;
let real: Citation;
let probes: Array<{ name: string; citation: Citation }>;
let col: Collection;
let server: TestServer;
let mcpHttp: Client;
let mcpStdio: Client;

beforeAll(async () => {
  corpus = await makeCorpus();
  envPath = join(corpus.docs, ".env");
  col = await openCollection({ indexDir: corpus.indexDir, collection: "default" });
  const [hit] = await col.search("re-reading the source and comparing the hash", { topK: 1 });
  real = hit!.citation;
  const env = (over: Partial<Citation>): Citation => ({
    document_id: documentIdFor(envPath),
    chunk_id: "probe",
    source: envPath,
    source_class: "text",
    extractor: null,
    start_offset: 0,
    end_offset: GUESS.length,
    start_line: 1,
    end_line: 1,
    text_hash: hash(GUESS),
    ...over,
  });
  const pdf = (await getExtractorRegistry()).get("pdf")!.identity;
  probes = [
    { name: "the id its path would get", citation: env({}) },
    { name: "a made-up document id", citation: env({ document_id: "f".repeat(32) }) },
    { name: "another document's id", citation: env({ document_id: real.document_id }) },
    { name: "a real citation with its source swapped", citation: { ...real, source: envPath, start_offset: 0, end_offset: 1, text_hash: hash("A") } },
    { name: "another document's id, cited as extracted", citation: env({ document_id: real.document_id, source_class: "extracted", extractor: pdf }) },
    { name: "a one-character guess", citation: env({ end_offset: 1, text_hash: hash("A") }) },
    { name: "a length probe", citation: env({ start_offset: 14, end_offset: 15, text_hash: hash("\n") }) },
    { name: "absurd offsets", citation: env({ start_offset: 0, end_offset: 1e15 }) },
  ];
  server = await startTestServer({ indexDir: corpus.indexDir });
  mcpHttp = new Client({ name: "verify-probe-http", version: "1.0.0" });
  await mcpHttp.connect(new StreamableHTTPClientTransport(new URL("/mcp", server.url)));
  mcpStdio = new Client({ name: "verify-probe-stdio", version: "1.0.0" });
  await mcpStdio.connect(
    new StdioClientTransport({ command: process.execPath, args: [CLI, "serve-mcp"], cwd: corpus.dir, env: { PATH: process.env.PATH ?? "" }, stderr: "pipe" }),
  );
}, 60_000);

afterAll(async () => {
  await mcpHttp?.close();
  await mcpStdio?.close();
  await server?.close();
  await col?.close();
  corpus.cleanup();
});

/** A surface answers a list of citations (each with the cited text, when the prober knows it). */
type Surface = (inputs: Array<{ citation: Citation; text?: string | undefined }>) => Promise<unknown[]>;

function toolAnswer(result: unknown): unknown {
  const r = result as CallToolResult;
  return { isError: r.isError ?? false, structured: r.structuredContent, content: r.content };
}

/** Ask one by one. */
const each = (one: (citation: Citation, text: string | undefined) => Promise<unknown>): Surface => async (inputs) => {
  const answers: unknown[] = [];
  for (const { citation, text } of inputs) answers.push(await one(citation, text));
  return answers;
};

const SURFACES: Record<string, Surface> = {
  library: each((citation, text) => col.verify(citation, { originalText: text })),
  // One process for the whole list (`grk verify` takes a list), so the test stays fast on a busy machine.
  cli: async (inputs) => {
    const res = grk(["verify", "-", "--json"], { cwd: corpus.dir, input: JSON.stringify(inputs) });
    const out = JSON.parse(res.stdout) as unknown;
    return (Array.isArray(out) ? out : [out]).map((answer) => ({ code: res.code, answer, stderr: res.stderr }));
  },
  rest: each(async (citation, text) => {
    const res = await http(server, "POST", "/v1/verify", { body: { citation, text } });
    return { status: res.status, json: res.json };
  }),
  "mcp-http": each(async (citation, text) => toolAnswer(await mcpHttp.callTool({ name: "verify_citation", arguments: { citation, text } }))),
  "mcp-stdio": each(async (citation, text) => toolAnswer(await mcpStdio.callTool({ name: "verify_citation", arguments: { citation, text } }))),
};

function setState(content: string | undefined): void {
  if (content === undefined) rmSync(envPath, { force: true });
  else writeFileSync(envPath, content);
}

/** The verdict inside a surface's answer, whatever its envelope. */
function verdictOf(answer: unknown): { verdict: string; detail: string } {
  const a = answer as { answer?: unknown; json?: unknown; structured?: unknown };
  return (a.answer ?? a.json ?? a.structured ?? a) as { verdict: string; detail: string };
}

describe("verification reads only indexed sources", () => {
  for (const [surface, verify] of Object.entries(SURFACES)) {
    it(`${surface}: a never-indexed .env answers the same whatever it holds, present or absent; a real citation verifies`, async () => {
      const runs: unknown[][] = [];
      for (const state of STATES) {
        setState(state);
        const inputs = probes.map((p) => ({ citation: p.citation, text: p.citation.text_hash === hash(GUESS) ? GUESS : undefined }));
        const answers = await verify([...inputs, { citation: real }]);
        // The control: a citation the collection indexed still verifies on this surface.
        expect(verdictOf(answers.pop()).verdict).toBe("verified");
        runs.push(answers);
      }
      setState(undefined);
      probes.forEach((p, i) => {
        const first = runs[0]![i];
        const v = verdictOf(first);
        expect(v.verdict, `${p.name}: ${v.detail}`).toBe("unresolvable");
        expect(v.detail).toMatch(/is not in collection 'default'|does not match the indexed document|was indexed as/);
        expect(JSON.stringify(first)).not.toMatch(/API_KEY|abc123|code points long|no longer exists/);
        for (const run of runs.slice(1)) expect(run[i], `${surface}, probe "${p.name}"`).toEqual(first);
      });
    }, 60_000);
  }
});
