/**
 * Bytes an MCP client receives for a top-10 `search`, over the golden
 * corpus's queries: the real CLI ingests evals/corpus, `grk serve-mcp` runs
 * under the MCP SDK's own stdio client, and each tool result (text content
 * plus structured content, as it sits in the JSON-RPC response) is measured.
 *
 *   npm run build && npm run tools:build
 *   node .tools-build/bench/mcp-search-bytes.js [options]   (HELP below)
 *
 * An older server without `format` is asked for the full form.
 * Writes `<out>/mcp-search-bytes-<label>.json` and prints the summary.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { parseOptions, usage } from "./cli-options.js";

const ROOT = resolve(import.meta.dirname, "../..");

const HELP = `usage: node .tools-build/bench/mcp-search-bytes.js [options]
  --cli PATH              the build measured (default this checkout's dist/cli/main.js; another commit's: "before")
  --format full|compact   the search result form asked for (default compact)
  --label NAME            results file mcp-search-bytes-NAME.json (default: the format)
  --out DIR               results folder (default this checkout's bench/results)
`;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function main(): Promise<void> {
  const { values } = parseOptions({
    options: {
      cli: { type: "string", default: join(ROOT, "dist/cli/main.js") },
      format: { type: "string", default: "compact" },
      label: { type: "string" },
      out: { type: "string", default: join(ROOT, "bench/results") },
    },
  }, HELP);
  if (values.format !== "full" && values.format !== "compact") usage(`--format must be full or compact, not '${values.format}'`);
  const format = values.format;
  const label = values.label ?? format;
  const cli = resolve(values.cli);
  const queries = readFileSync(join(ROOT, "evals/judgments.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { query: string }).query);
  const scratch = mkdtempSync(join(tmpdir(), "grk-mcp-bytes-"));
  try {
    const indexDir = join(scratch, "index");
    execFileSync(process.execPath, [cli, "ingest", join(ROOT, "evals/corpus"), "--index-dir", indexDir], { stdio: "ignore" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, "serve-mcp", "--index-dir", indexDir],
      env: { PATH: process.env.PATH ?? "" },
      stderr: "ignore",
    });
    const client = new Client({ name: "mcp-search-bytes", version: "1.0.0" });
    await client.connect(transport);
    const bytes: number[] = [];
    try {
      for (const query of queries) {
        const args: Record<string, unknown> = { query, top_k: 10 };
        if (format === "compact") args.format = "compact";
        const result = await client.callTool({ name: "search", arguments: args });
        if (result.isError) throw new Error(`search failed: ${JSON.stringify(result.content)}`);
        bytes.push(Buffer.byteLength(JSON.stringify({ content: result.content, structuredContent: result.structuredContent })));
      }
    } finally {
      await client.close();
    }
    const sorted = [...bytes].sort((a, b) => a - b);
    const summary = {
      label,
      format,
      cli,
      queries: bytes.length,
      top_k: 10,
      bytes_mean: Math.round(bytes.reduce((a, b) => a + b, 0) / bytes.length),
      bytes_median: quantile(sorted, 0.5),
      bytes_p90: quantile(sorted, 0.9),
      bytes_max: sorted.at(-1),
      node: process.version,
      measured_at: new Date().toISOString(),
    };
    mkdirSync(values.out, { recursive: true });
    writeFileSync(join(values.out, `mcp-search-bytes-${label}.json`), JSON.stringify(summary, null, 2) + "\n");
    console.log(JSON.stringify(summary));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
