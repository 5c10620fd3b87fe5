/**
 * Results that show why they matched, on every surface with real parts: the
 * built CLI (passage with bracketed terms in a pipe, JSON offsets that slice
 * the source, --min-score and the reason for no results, `grk verify` naming
 * the hit and source), the REST server (min_score, no_results, context in one
 * search), and MCP through the SDK's own client over Streamable HTTP (the
 * compact form, its text rendering, the total budget, and error hints an
 * agent can act on through the tools).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, grk } from "./support/cli.js";
import { http, servedCorpus, type Corpus, type TestServer } from "./service-fixtures.js";

interface Passage {
  text: string;
  start_offset: number;
  end_offset: number;
  terms: Array<{ term: string; start_offset: number; end_offset: number }>;
  basis: string;
}
interface Hit {
  rank: number;
  chunk_id: string;
  text: string;
  passage: Passage;
  citation: { source: string; start_offset: number; end_offset: number };
  context?: { before: string; after: string } | null;
  verification?: { verdict: string };
}

const served = servedCorpus();
let corpus: Corpus;
let server: TestServer;
beforeAll(() => {
  ({ corpus, server } = served);
});

const cli = (args: string[]) => grk([...args, "--index-dir", corpus.indexDir], { cwd: corpus.dir });
const codePoints = (s: string) => Array.from(s);

describe("the CLI", () => {
  it("shows the matched passage with the query's terms (stemmed) in brackets when not on a terminal", () => {
    const res = cli(["search", "comparing hashes", "-k", "1"]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/\[comparing\] the \[hash\] of the cited text/);
    expect(res.stdout).not.toContain("\x1b[");
  });

  it("bolds and underlines the terms on a real terminal (a pty from util-linux `script`), brackets with NO_COLOR", () => {
    const onTty = (env: string) => {
      const command = `${env} ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} search 'comparing hashes' -k 1 --index-dir ${JSON.stringify(corpus.indexDir)}`;
      const res = spawnSync("script", ["-qec", command, "/dev/null"], { cwd: corpus.dir, encoding: "utf8" });
      if (res.error) throw new Error(`util-linux \`script\` is needed for this test: ${res.error.message}`);
      return res.stdout;
    };
    expect(onTty("env -u NO_COLOR")).toContain("\x1b[1;4mcomparing\x1b[0m the \x1b[1;4mhash\x1b[0m of the cited text");
    const plain = onTty("NO_COLOR=1");
    expect(plain).toContain("[comparing] the [hash] of the cited text");
    expect(plain).not.toContain("\x1b[1;4m");
  });

  it("gives the passage and each term as code-point offsets of the source in --json", () => {
    const res = cli(["search", "backups snapshots", "--json"]);
    const [hit] = (JSON.parse(res.stdout) as { results: Hit[] }).results;
    const content = codePoints(readFileSync(hit!.citation.source, "utf8"));
    // notes.txt holds an emoji before the terms: offsets are code points, not UTF-16 units.
    expect(hit!.citation.source).toBe(join(corpus.docs, "notes.txt"));
    expect(content.slice(hit!.passage.start_offset, hit!.passage.end_offset).join("")).toBe(hit!.passage.text);
    expect(hit!.passage.terms.map((t) => content.slice(t.start_offset, t.end_offset).join(""))).toEqual(["backups", "snapshots"]);
    expect(hit!.passage.terms.map((t) => t.term)).toEqual(["backup", "snapshot"]);
    expect(hit!.passage.basis).toBe("query_terms");
  });

  it("abstains under --min-score and says why nothing matched", () => {
    const floor = cli(["search", "citation", "--min-score", "1000"]);
    expect(floor.code).toBe(0);
    expect(floor.stdout).toMatch(/^no results: Every hit scored below the floor min_score 1000; the best scored \d/);
    const json = JSON.parse(cli(["search", "citation", "--min-score", "1000", "--json"]).stdout);
    expect(json.results).toEqual([]);
    expect(json.no_results).toMatchObject({ reason: "below_min_score", best_score: expect.any(Number) });
    expect(JSON.parse(cli(["search", "xylophone quasar", "--json"]).stdout).no_results.reason).toBe("terms_not_in_index");
    expect(cli(["search", "xylophone quasar"]).stdout).toMatch(/None of the query's terms occurs in the collection \(as analyzed: xylophon, quasar\)/);
    expect(JSON.parse(cli(["search", "the of and", "--json"]).stdout).no_results.reason).toBe("no_searchable_terms");
    expect(JSON.parse(cli(["search", "citation", "--filter", "ext=pdf", "--json"]).stdout).no_results.reason).toBe("filtered_out");
    // A hit at or above the floor stays, and a malformed floor is a usage error.
    const kept = JSON.parse(cli(["search", "citation", "--min-score", "0.0001", "--json"]).stdout);
    expect(kept.results.length).toBeGreaterThan(0);
    expect(kept.no_results).toBeUndefined();
    expect(cli(["search", "citation", "--min-score", "high"]).code).toBe(2);
  });

  it("names the hit and its source for each verdict in grk verify's text output", () => {
    const out = cli(["search", "citation", "--json"]).stdout;
    const hits = (JSON.parse(out) as { results: Hit[] }).results;
    writeFileSync(join(corpus.dir, "hits.json"), out);
    const res = cli(["verify", "hits.json"]);
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(hits.length * 2);
    expect(lines[0]).toBe(`verified  hit 1  docs/citations.md:${lines[0]!.match(/:(\d+-\d+)/)![1]}  chunk ${hits[0]!.chunk_id}`);
    expect(lines[1]).toMatch(/^ {3}the text at code points \d+-\d+ matches the cited hash\.$/);
    // A bare citation is numbered by its place in the input.
    writeFileSync(join(corpus.dir, "bare.json"), JSON.stringify([(hits[0] as unknown as { citation: unknown }).citation]));
    expect(cli(["verify", "bare.json"]).stdout).toMatch(/^verified {2}citation 1 {2}docs\/citations\.md:\d+-\d+ {2}chunk /);
  });
});

describe("REST", () => {
  it("takes min_score and says why nothing matched", async () => {
    const res = await http(server, "POST", "/v1/search", { body: { query: "citation", min_score: 1000 } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ results: [], no_results: { reason: "below_min_score" } });
    const ok = await http(server, "POST", "/v1/search", { body: { query: "citation" } });
    expect(ok.json.no_results).toBeUndefined();
    expect(ok.json.results[0].passage.terms[0].term).toBe("citat");
  });

  it("returns every hit's context and verdict from one search (one read per source)", async () => {
    const res = await http(server, "POST", "/v1/search", { body: { query: "citation hash", context_chars: 30 } });
    expect(res.status, res.text).toBe(200);
    for (const hit of res.json.results as Hit[]) {
      expect(hit.verification?.verdict).toBe("verified");
      const content = codePoints(readFileSync(hit.citation.source, "utf8"));
      expect(hit.context!.before).toBe(content.slice(Math.max(0, hit.citation.start_offset - 30), hit.citation.start_offset).join(""));
      expect(hit.context!.after).toBe(content.slice(hit.citation.end_offset, hit.citation.end_offset + 30).join(""));
    }
  });

  it("refuses a budget on the full form and context on the compact one", async () => {
    const budget = await http(server, "POST", "/v1/search", { body: { query: "citation", max_total_chars: 100 } });
    expect(budget.status).toBe(400);
    expect(budget.json.error.message).toMatch(/max_total_chars bounds the compact form/);
    const ctx = await http(server, "POST", "/v1/search", { body: { query: "citation", format: "compact", context_chars: 5 } });
    expect(ctx.status).toBe(400);
  });
});

async function connect(): Promise<Client> {
  const client = new Client({ name: "groundkit-compact-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", server.url)));
  return client;
}

const wireBytes = (r: CallToolResult) => Buffer.byteLength(JSON.stringify({ content: r.content, structuredContent: r.structuredContent }));

describe("MCP, with the SDK client", () => {
  it("answers in compact form: passage, citation and score, with a plain text rendering instead of a JSON copy", async () => {
    const client = await connect();
    try {
      const args = { query: "citation hash source", top_k: 10 };
      const full = (await client.callTool({ name: "search", arguments: { ...args, format: "full" } })) as CallToolResult;
      const compact = (await client.callTool({ name: "search", arguments: args })) as CallToolResult;
      // Compact is MCP's default (ADR 0029); REST keeps full as its default.
      expect((compact.structuredContent as { format: string }).format).toBe("compact");
      expect((full.structuredContent as { format: string }).format).toBe("full");
      expect((await http(server, "POST", "/v1/search", { body: args })).json.format).toBe("full");
      const hits = (compact.structuredContent as { results: Array<Record<string, unknown>> }).results;
      expect(hits.length).toBeGreaterThan(0);
      expect(Object.keys(hits[0]!).sort()).toEqual(["chunk_id", "citation", "passage", "rank", "score"]);
      const text = (compact.content[0] as { text: string }).text;
      expect(text).toMatch(new RegExp(`^${hits.length} results? for "citation hash source" in default \\(bm25\\)\\n1\\. `));
      expect(text).toContain(`chunk ${hits[0]!.chunk_id as string}`);
      expect(() => JSON.parse(text)).toThrow();
      expect(wireBytes(compact)).toBeLessThan(wireBytes(full));
      // The compact citation is what verify_citation takes.
      const verified = (await client.callTool({ name: "verify_citation", arguments: { citation: hits[0]!.citation } })) as CallToolResult;
      expect((verified.structuredContent as { verdict: string }).verdict).toBe("verified");
    } finally {
      await client.close();
    }
  });

  it("keeps passages within max_chars each and max_total_chars overall, counting what it left out", async () => {
    const client = await connect();
    try {
      const r = (await client.callTool({
        name: "search",
        arguments: { query: "citation text source notes install", format: "compact", max_chars: 60, max_total_chars: 130 },
      })) as CallToolResult;
      const out = r.structuredContent as { results: Array<{ passage: string }>; omitted?: number };
      for (const h of out.results) expect(codePoints(h.passage).length).toBeLessThanOrEqual(60);
      expect(out.results.reduce((n, h) => n + codePoints(h.passage).length, 0)).toBeLessThanOrEqual(130);
      expect(out.omitted).toBeGreaterThan(0);
      expect((r.content[0] as { text: string }).text).toMatch(/\(\d+ more hits? left out by max_total_chars\)$/m);
    } finally {
      await client.close();
    }
  });

  it("says why nothing matched, in the structured content and the text", async () => {
    const client = await connect();
    try {
      const r = (await client.callTool({ name: "search", arguments: { query: "xylophone", format: "compact" } })) as CallToolResult;
      expect(r.structuredContent).toMatchObject({ results: [], no_results: { reason: "terms_not_in_index" } });
      expect((r.content[0] as { text: string }).text).toMatch(/^0 results for "xylophone" in default \(bm25\): None of the query's terms/);
    } finally {
      await client.close();
    }
  });

  it("gives error hints an agent can act on through the tools, while the CLI keeps its shell hint", async () => {
    const client = await connect();
    try {
      const r = (await client.callTool({ name: "search", arguments: { query: "citation", mode: "dense" } })) as CallToolResult;
      expect(r.isError).toBe(true);
      const body = JSON.parse((r.content[0] as { text: string }).text) as { error: { code: string; message: string; hint: string } };
      expect(body.error.code).toBe("NO_VECTORS");
      expect(body.error.hint).toMatch(/^Retry with mode=bm25/);
      // The message states the fact once; the remedy lives in the hint.
      expect(body.error.message).not.toMatch(/grk /);
      const missing = (await client.callTool({ name: "search", arguments: { query: "x", collection: "ghost" } })) as CallToolResult;
      expect(JSON.parse((missing.content[0] as { text: string }).text).error.hint).toMatch(/list_collections/);
    } finally {
      await client.close();
    }
    const shell = cli(["search", "citation", "--mode", "dense"]);
    expect(shell.stderr).toMatch(/^error\[NO_VECTORS\]: .*\nhint: Run `grk ingest <path> --dense`/);
  });
});
