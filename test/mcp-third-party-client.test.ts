/**
 * A third-party MCP client from npm (the MCP Inspector's CLI,
 * @modelcontextprotocol/inspector-cli) connects over stdio and over
 * Streamable HTTP, lists the tools and runs search and fetch_chunk.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "./support/cli.js";
import { makeCorpus, startTestServer, type Corpus, type TestServer } from "./service-fixtures.js";

const require = createRequire(import.meta.url);
/** The inspector reads its own package.json relative to the working directory, so it runs from its build dir. */
const INSPECTOR_DIR = join(dirname(require.resolve("@modelcontextprotocol/inspector-cli/package.json")), "build");

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

function inspector(args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["index.js", ...args], { cwd: INSPECTOR_DIR });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`inspector exited ${code}: ${err}`));
      else resolve(JSON.parse(out));
    });
  });
}

const stdioTarget = () => [process.execPath, CLI, "serve-mcp", "--index-dir", corpus.indexDir];

describe("third-party MCP client (MCP Inspector CLI)", () => {
  it("lists tools and runs search then fetch_chunk over stdio", async () => {
    const list = (await inspector([...stdioTarget(), "--method", "tools/list"])) as { tools: Array<{ name: string }> };
    expect(list.tools.map((t) => t.name).sort()).toEqual(
      ["document_history", "fetch_chunk", "get_document", "index_status", "list_collections", "list_documents", "search", "verify_citation", "verify_quote"].sort(),
    );
    const search = (await inspector([
      ...stdioTarget(),
      "--method",
      "tools/call",
      "--tool-name",
      "search",
      "--tool-arg",
      "query=how are citations checked",
    ])) as { structuredContent: { results: Array<{ chunk_id: string }> } };
    const chunkId = search.structuredContent.results[0]!.chunk_id;
    const fetched = (await inspector([
      ...stdioTarget(),
      "--method",
      "tools/call",
      "--tool-name",
      "fetch_chunk",
      "--tool-arg",
      `chunk_id=${chunkId}`,
    ])) as { structuredContent: { verdict: string; text: string } };
    expect(fetched.structuredContent.verdict).toBe("verified");
    expect(fetched.structuredContent.text).toContain("citation");
  });

  it("lists tools and searches over Streamable HTTP", async () => {
    const url = `${server.url}/mcp`;
    const list = (await inspector([url, "--transport", "http", "--method", "tools/list"])) as { tools: unknown[] };
    expect(list.tools.length).toBe(9);
    const search = (await inspector([
      url,
      "--transport",
      "http",
      "--method",
      "tools/call",
      "--tool-name",
      "search",
      "--tool-arg",
      "query=install engine",
    ])) as { structuredContent: { results: Array<{ citation: { source: string } }> } };
    expect(search.structuredContent.results[0]!.citation.source).toMatch(/install\.md$/);
  });
});
