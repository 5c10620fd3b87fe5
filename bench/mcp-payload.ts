/**
 * What an agent pays for MCP: the bytes and estimated tokens of `tools/list`
 * (each tool's entry: name, title, description, input schema, annotations),
 * without and with the mutating tools, and of typical tool results — a top-10
 * `search` in the compact form (MCP's default) and the full one over the
 * golden corpus's queries, and a `fetch_chunk` of each compact top hit (the
 * full citation and chunk, one call away).
 *
 * The built CLI ingests evals/corpus and `grk serve-mcp` runs under the MCP
 * SDK's own stdio client, so what is measured is what a client receives.
 *
 * Tokens are an estimate, not a tokenizer's count: ⌈UTF-8 bytes / 4⌉, the
 * usual rule of thumb for GPT-style BPE on English text. No GPT tokenizer is
 * installed (the MiniLM tokenizer.json in node_modules is a WordPiece
 * vocabulary for the embedding model, not what a chat model counts); JSON with
 * hex ids and punctuation runs nearer 3 bytes per token, so read the estimate
 * as a lower bound and compare rows with each other.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { repoRoot } from "./open.js";

/** Bytes per token of the estimate. */
export const BYTES_PER_TOKEN = 4;

/** ⌈bytes / 4⌉ of a value's JSON (or of a string as it is). */
export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}

export interface Sized {
  bytes: number;
  tokens_est: number;
}

/** Mean, median and largest of many results. */
export interface SizedSeries {
  calls: number;
  bytes_mean: number;
  bytes_median: number;
  bytes_max: number;
  tokens_est_mean: number;
}

export interface McpPayloadResult {
  tools_list: { read_only: Sized & { tools: Array<Sized & { name: string }> }; with_token: Sized & { tools: number } };
  /** The search tool result, split as a client sees it: the text block, the structured content, both (the wire). */
  search: Record<"compact" | "full", { text: SizedSeries; structured: SizedSeries; wire: SizedSeries }>;
  fetch_chunk: SizedSeries;
  token_estimate: string;
  queries: number;
}

const sized = (value: unknown): Sized => {
  const bytes = Buffer.byteLength(typeof value === "string" ? value : JSON.stringify(value));
  return { bytes, tokens_est: estimateTokens(bytes) };
};

function series(bytes: number[]): SizedSeries {
  const sorted = [...bytes].sort((a, b) => a - b);
  const mean = bytes.reduce((a, b) => a + b, 0) / Math.max(1, bytes.length);
  return {
    calls: bytes.length,
    bytes_mean: Math.round(mean),
    bytes_median: sorted[Math.floor(sorted.length / 2)] ?? 0,
    bytes_max: sorted.at(-1) ?? 0,
    tokens_est_mean: estimateTokens(mean),
  };
}

async function connect(main: string, indexDir: string, token?: string): Promise<Client> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "" };
  if (token) env.GROUNDKIT_API_TOKEN = token;
  const transport = new StdioClientTransport({ command: process.execPath, args: [main, "serve-mcp", "--index-dir", indexDir], env, stderr: "ignore" });
  const client = new Client({ name: "bench-mcp-payload", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/**
 * Ingest the golden corpus into `workDir` with the built CLI and measure.
 *
 * @example
 *   const r = await measureMcpPayload("/tmp/bench"); r.tools_list.read_only.bytes
 */
export async function measureMcpPayload(workDir: string): Promise<McpPayloadResult> {
  const root = repoRoot();
  const main = join(root, "dist", "cli", "main.js");
  if (!existsSync(main)) throw new Error("mcp: dist/cli/main.js is missing; run `npm run build` first");
  const indexDir = join(workDir, "mcp-index");
  const ingest = spawnSync(process.execPath, [main, "ingest", join(root, "evals/corpus"), "--index-dir", indexDir], { encoding: "utf8" });
  if (ingest.status !== 0) throw new Error(`mcp: ingest of evals/corpus failed: ${ingest.stderr.slice(0, 500)}`);
  const queries = readFileSync(join(root, "evals/judgments.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { query: string }).query);

  const privileged = await connect(main, indexDir, "bench-token-0123456789abcdef");
  let withToken: McpPayloadResult["tools_list"]["with_token"];
  try {
    const { tools } = await privileged.listTools();
    withToken = { ...sized({ tools }), tools: tools.length };
  } finally {
    await privileged.close();
  }

  const client = await connect(main, indexDir);
  try {
    const { tools } = await client.listTools();
    const readOnly = { ...sized({ tools }), tools: tools.map((t) => ({ name: t.name, ...sized(t) })) };
    const search = {} as McpPayloadResult["search"];
    const topChunks: string[] = [];
    for (const format of ["compact", "full"] as const) {
      const text: number[] = [];
      const structured: number[] = [];
      const wire: number[] = [];
      for (const query of queries) {
        const r = await client.callTool({ name: "search", arguments: { query, top_k: 10, format } });
        if (r.isError) throw new Error(`mcp: search failed: ${JSON.stringify(r.content)}`);
        text.push(sized(r.content).bytes);
        structured.push(sized(r.structuredContent).bytes);
        wire.push(sized({ content: r.content, structuredContent: r.structuredContent }).bytes);
        const first = (r.structuredContent as { results: Array<{ chunk_id: string }> }).results[0];
        if (format === "compact" && first) topChunks.push(first.chunk_id);
      }
      search[format] = { text: series(text), structured: series(structured), wire: series(wire) };
    }
    const fetched: number[] = [];
    for (const chunk_id of topChunks) {
      const r = await client.callTool({ name: "fetch_chunk", arguments: { chunk_id } });
      fetched.push(sized({ content: r.content, structuredContent: r.structuredContent }).bytes);
    }
    return {
      tools_list: { read_only: readOnly, with_token: withToken },
      search,
      fetch_chunk: series(fetched),
      token_estimate: `ceil(UTF-8 bytes / ${BYTES_PER_TOKEN}); no GPT tokenizer installed (see bench/mcp-payload.ts)`,
      queries: queries.length,
    };
  } finally {
    await client.close();
  }
}
