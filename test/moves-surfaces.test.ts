/**
 * Moves on every surface (issue 28): `grk ingest` says `moved N` (text and
 * --json), and a citation taken before the move is `drifted` naming the new
 * path through `grk verify`, REST `POST /v1/verify` and MCP `verify_citation`
 * (the real CLI, a real server on 127.0.0.1, the real MCP SDK client).
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, grk, grkServe, tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
beforeAll(() => {
  work = tempDir("grk-moves-surfaces-");
});
afterAll(() => work.cleanup());

describe("a moved file on every surface", () => {
  it("ingest reports it moved; CLI, REST and MCP verify the old citation as drifted to the new path", async () => {
    const docs = join(work.dir, "docs");
    mkdirSync(join(docs, "old"), { recursive: true });
    writeFileSync(join(docs, "old", "keeper.md"), "# Keeper\n\nThe lighthouse keeper trims the wick at dusk.\n");
    writeFileSync(join(docs, "other.md"), "# Other\n\nNothing about lamps here.\n");
    expect(grk(["ingest", docs], { cwd: work.dir }).code).toBe(0);
    const hits = grk(["search", "lighthouse keeper wick", "--json"], { cwd: work.dir });
    writeFileSync(join(work.dir, "hits.json"), hits.stdout);
    const citation = (JSON.parse(hits.stdout) as { results: Array<{ citation: Record<string, unknown> }> }).results[0]!.citation;

    mkdirSync(join(docs, "new"));
    renameSync(join(docs, "old", "keeper.md"), join(docs, "new", "keeper.md"));
    const text = grk(["ingest", docs], { cwd: work.dir });
    expect(text.stdout).toMatch(/unchanged 1, moved 1, removed 0,/);
    const moved = join(docs, "new", "keeper.md");

    const cli = grk(["verify", "hits.json", "--json"], { cwd: work.dir });
    const cliOut = JSON.parse(cli.stdout) as { verdict: string; relocated?: { source?: string } };
    expect(cliOut.verdict).toBe("drifted");
    expect(cliOut.relocated?.source).toBe(moved);
    expect(grk(["verify", "hits.json"], { cwd: work.dir }).stdout).toContain(`moved from ${join(docs, "old", "keeper.md")} to ${moved}`);

    const { url, child } = await grkServe(["--port", "0"], { cwd: work.dir });
    try {
      const res = await fetch(`${url}/v1/verify`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ citation }) });
      const rest = (await res.json()) as { verdict: string; relocated?: { source?: string; document_id?: string } };
      expect(rest).toMatchObject({ verdict: "drifted", relocated: { source: moved, document_id: citation.document_id } });
    } finally {
      child.kill("SIGTERM");
    }

    const mcp = new Client({ name: "moves-probe", version: "1.0.0" });
    await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "serve-mcp"], cwd: work.dir, env: { PATH: process.env.PATH ?? "" }, stderr: "pipe" }));
    try {
      const answer = await mcp.callTool({ name: "verify_citation", arguments: { citation } });
      expect(answer.isError ?? false).toBe(false);
      expect(answer.structuredContent).toMatchObject({ verdict: "drifted", relocated: { source: moved } });
    } finally {
      await mcp.close();
    }

    renameSync(moved, join(docs, "keeper-renamed.md"));
    const json = grk(["ingest", docs, "--json"], { cwd: work.dir });
    expect(JSON.parse(json.stdout)).toMatchObject({ moved: 1, unchanged: 1, indexed: 0, removed: 0 });
  }, 180_000);
});
