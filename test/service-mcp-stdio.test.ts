/**
 * `grk serve-mcp` driven by the MCP SDK's own client over stdio (the built CLI
 * in a child process), and the stdout guard (`mcp-stdout-guard`): stdout
 * carries nothing but JSON-RPC, at start-up, on tool errors, on protocol
 * garbage and with a bad index dir; logs go to stderr.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "./support/cli.js";
import { makeCorpus, TOKEN, type Corpus } from "./service-fixtures.js";

let corpus: Corpus;

beforeAll(async () => {
  corpus = await makeCorpus();
});
afterAll(() => corpus.cleanup());

async function connect(args: string[], env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve-mcp", ...args],
    cwd: corpus.dir,
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: "groundkit-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

function structured(result: unknown): Record<string, unknown> {
  const r = result as CallToolResult;
  expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
  // The text block carries the same JSON as the structured content, except search's: a plain rendering of its hits.
  const text = (r.content.find((c) => c.type === "text") as { text: string } | undefined)?.text ?? "";
  const content = r.structuredContent as { query?: unknown; results?: unknown[] } | undefined;
  if (content && typeof content.query === "string" && Array.isArray(content.results)) {
    expect(text).toMatch(new RegExp(`^${content.results.length} results? for `));
  } else {
    expect(JSON.parse(text)).toEqual(r.structuredContent);
  }
  return r.structuredContent as Record<string, unknown>;
}

describe("serve-mcp over stdio with the SDK client", () => {
  it("identifies itself, lists the read tools with annotations, and runs search then fetch_chunk", async () => {
    const { client, stderr } = await connect(["--index-dir", corpus.indexDir]);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "groundkit", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
      expect(client.getInstructions()).toMatch(/search.*fetch_chunk/s);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["search", "fetch_chunk", "get_document", "list_documents", "document_history", "verify_citation", "verify_quote", "list_collections", "index_status"]);
      for (const t of tools) {
        expect(t.annotations?.readOnlyHint).toBe(true);
        // Output schemas live in /openapi.json, not in the list every connection pays for (ADR 0029).
        expect(t.outputSchema).toBeUndefined();
      }
      const search = tools.find((t) => t.name === "search")!;
      expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining(["query", "collection", "top_k", "mode", "filters", "rerank", "verify"]),
      );

      // Compact by default over MCP: the passage and citation; the whole chunk is one fetch_chunk away.
      const found = structured(await client.callTool({ name: "search", arguments: { query: "hash of the cited text", top_k: 3 } }));
      expect(found.format).toBe("compact");
      const hits = found.results as Array<{ chunk_id: string; passage: string; citation: { source: string } }>;
      expect(hits[0]!.citation.source).toBe(join(corpus.docs, "citations.md"));

      const chunk = structured(await client.callTool({ name: "fetch_chunk", arguments: { chunk_id: hits[0]!.chunk_id } }));
      expect(chunk).toMatchObject({ verdict: "verified", chunk_id: hits[0]!.chunk_id, citation: hits[0]!.citation });
      expect(chunk.text).toContain(hits[0]!.passage);

      const verified = structured(
        await client.callTool({ name: "verify_citation", arguments: { citation: (chunk as { citation: unknown }).citation } }),
      );
      expect(verified.verdict).toBe("verified");
      expect(structured(await client.callTool({ name: "list_collections", arguments: {} })).collections).toEqual([
        expect.objectContaining({ name: "default", documents: 3 }),
      ]);
      expect(structured(await client.callTool({ name: "index_status", arguments: { collection: "default" } }))).toMatchObject({
        documents: 3,
      });
      expect(stderr()).toContain("serve-mcp ready");
      expect(stderr()).not.toContain("hash of the cited text");
    } finally {
      await client.close();
    }
  });

  it("returns typed tool errors, not crashes", async () => {
    const { client } = await connect(["--index-dir", corpus.indexDir]);
    try {
      const missing = (await client.callTool({ name: "search", arguments: { query: "x", collection: "ghost" } })) as CallToolResult;
      expect(missing.isError).toBe(true);
      const body = JSON.parse((missing.content[0] as { text: string }).text);
      expect(body.error.code).toBe("COLLECTION_NOT_FOUND");
      const invalid = (await client.callTool({ name: "search", arguments: { query: "x", top_k: 0 } })) as CallToolResult;
      expect(invalid.isError).toBe(true);
      const absent = (await client.callTool({ name: "ingest", arguments: { inputs: ["."] } })) as CallToolResult;
      expect(absent.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("offers ingest and delete_document only with GROUNDKIT_API_TOKEN; a search after ingest sees the new file", async () => {
    const { client } = await connect(["--index-dir", corpus.indexDir, "--allowed-root", corpus.docs], {
      GROUNDKIT_API_TOKEN: TOKEN,
    });
    try {
      const { tools } = await client.listTools();
      const ingest = tools.find((t) => t.name === "ingest");
      expect(ingest?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(tools.map((t) => t.name)).toContain("delete_document");

      writeFileSync(join(corpus.docs, "stdio-new.md"), "# New\n\nThe axolotl regrows its limbs.\n");
      const summary = structured(await client.callTool({ name: "ingest", arguments: { inputs: ["stdio-new.md"] } }));
      expect(summary).toMatchObject({ indexed: 1, failed: [] });
      const found = structured(await client.callTool({ name: "search", arguments: { query: "axolotl" } }));
      const hits = found.results as Array<{ citation: { document_id: string } }>;
      expect(hits).toHaveLength(1);
      const deleted = structured(await client.callTool({ name: "delete_document", arguments: { document_id: hits[0]!.citation.document_id } }));
      expect(deleted.deleted).toBe(true);
      expect(structured(await client.callTool({ name: "search", arguments: { query: "axolotl" } })).results).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

/** Run serve-mcp with raw stdin lines; resolve with everything it printed once stdin is closed. */
function runRaw(args: string[], lines: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "serve-mcp", ...args], { cwd: corpus.dir, env: { PATH: process.env.PATH ?? "" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    const responsesExpected = lines.filter((l) => /"id":/.test(l)).length;
    // Close stdin once every request was answered (or at once if nothing is expected).
    const maybeEnd = () => {
      if (stdout.split("\n").filter(Boolean).length >= responsesExpected) child.stdin.end();
    };
    child.stdout.on("data", maybeEnd);
    for (const line of lines) child.stdin.write(line + "\n");
    if (responsesExpected === 0) child.stdin.end();
  });
}

const init = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
const call = (id: number, name: string, args: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

function expectOnlyJsonRpc(stdout: string): Array<{ jsonrpc: string; id?: number }> {
  const lines = stdout.split("\n").filter((l) => l.length > 0);
  return lines.map((line) => {
    const msg = JSON.parse(line) as { jsonrpc: string; id?: number };
    expect(msg.jsonrpc).toBe("2.0");
    return msg;
  });
}

describe("mcp-stdout-guard", () => {
  it("prints nothing but JSON-RPC on stdout, through errors and garbage input", async () => {
    const res = await runRaw(
      ["--index-dir", corpus.indexDir],
      [
        init,
        initialized,
        "this is not json",
        call(2, "search", { query: "citation" }),
        call(3, "search", { query: "x", collection: "ghost" }),
        call(4, "search", { query: "x", top_k: "many" }),
        call(5, "nope", {}),
        JSON.stringify({ jsonrpc: "2.0", id: 6, method: "tools/list" }),
      ],
    );
    const messages = expectOnlyJsonRpc(res.stdout);
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(res.stderr).toContain("serve-mcp ready");
    expect(res.stderr).toContain("tool");
    expect(res.code).toBe(0);
  });

  it("keeps stdout clean with a bad index dir (a file), logging the problem to stderr", async () => {
    const bad = join(corpus.dir, "not-a-dir");
    writeFileSync(bad, "x");
    const res = await runRaw(["--index-dir", bad], [init, initialized, call(2, "list_collections", {}), call(3, "search", { query: "x" })]);
    const messages = expectOnlyJsonRpc(res.stdout) as Array<{ id?: number; result?: { isError?: boolean; structuredContent?: unknown } }>;
    expect(messages.find((m) => m.id === 2)?.result?.structuredContent).toEqual({ collections: [] });
    expect(messages.find((m) => m.id === 3)?.result?.isError).toBe(true);
    expect(res.stderr).toMatch(/index directory does not exist or is not a directory/);
  });

  it("reports a start-up failure on stderr only, with exit code 1", async () => {
    const config = join(corpus.dir, "broken.json");
    writeFileSync(config, "{ not json");
    const res = await runRaw(["--config", config], []);
    expect(res.stdout).toBe("");
    expect(res.stderr).toMatch(/^error\[INVALID_CONFIG\]/m);
    expect(res.code).toBe(1);
  });
});
