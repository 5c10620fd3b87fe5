/**
 * The bench tools as commands (bench/cli-options.ts, bench/exit-on-signal.ts):
 * a bad option is one `bench: …` line and exit 2, never a Node stack trace;
 * `--help` lists each tool's options and exits 0 before any work; an
 * interrupted PostgreSQL benchmark leaves no server or data behind. The tools run as built by
 * `npm run tools:build`, which `npm test` does not do: built here first.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");

/** Each tool (.tools-build/bench/<tool>.js) with options its help must list. */
const TOOLS: Record<string, string[]> = {
  run: ["--size", "--only", "--out", "--store"],
  "load-search": ["--seconds", "--documents", "--levels", "--workers", "--index", "--node-arg", "--cli", "--no-write", "--out"],
  "history-replay": ["--repo", "--commits", "--paths", "--out"],
  "mcp-search-bytes": ["--cli", "--format", "--label", "--out"],
  "office-extraction": ["--runs", "--out", "FILE|FOLDER"],
  "postgres-bm25": ["--chunks", "--out"],
  "write-doc": ["--results", "--out"],
  moves: ["--source", "--seed", "--out"],
};

function tool(name: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const res = spawnSync(process.execPath, [join(ROOT, ".tools-build/bench", `${name}.js`), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    // A tool that ignored --help would start its benchmark: stop it rather than hang.
    timeout: 30_000,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.tools.json"], { cwd: ROOT, stdio: "pipe" });
}, 300_000);

describe.each(Object.entries(TOOLS))("bench/%s", (name, options) => {
  // An unknown option; an option whose value is missing (parseArgs's message for it takes three lines).
  it.each(["--bogus", "--out -x"])("answers %s with one usage line and exit 2", (args) => {
    const r = tool(name, args.split(" "));
    expect(r.stderr).toMatch(/^bench: /);
    expect(r.stderr).not.toMatch(/^ {4}at /m);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.code, r.stderr).toBe(2);
  });

  it("lists its options on --help and -h, exit 0", () => {
    for (const flag of ["--help", "-h"]) {
      const r = tool(name, [flag]);
      expect(r.code, r.stderr).toBe(0);
      for (const option of options) expect(r.stdout).toContain(option);
    }
  });

  it("lists its options on --help beside an unknown option, but takes -h given as an option's value as that value", () => {
    const r = tool(name, ["--bogus", "--help"]);
    expect(r.code, r.stderr).toBe(0);
    for (const option of options) expect(r.stdout).toContain(option);
    // `--out -h`: a value, not a request for help (parseArgs refuses a dash-led value given apart as ambiguous).
    expectUsageLine(tool(name, ["--out", "-h"]), /--out/);
    expect(tool(name, ["--out", "-h"]).stdout).toBe("");
  });
});

/** One `bench: …` line naming what is wrong, exit 2, no stack trace. */
function expectUsageLine(r: ReturnType<typeof tool>, says: RegExp): void {
  expect(r.stderr).toMatch(/^bench: /);
  expect(r.stderr).toMatch(says);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.code, r.stderr).toBe(2);
}

describe("bench/history-replay's repository and paths", () => {
  it("refuses a folder that is not a git repository, and paths that name nothing", () => {
    const notRepo = mkdtempSync(join(tmpdir(), "grk-not-a-repo-"));
    try {
      expectUsageLine(tool("history-replay", ["--repo", notRepo]), /not a git repository/);
    } finally {
      rmSync(notRepo, { recursive: true, force: true });
    }
    expectUsageLine(tool("history-replay", ["--paths", ""]), /--paths must name at least one path/);
    expectUsageLine(tool("history-replay", ["--paths", " , "]), /--paths must name at least one path/);
    expectUsageLine(tool("history-replay", ["--paths", "no-such-folder"]), /none of --paths no-such-folder is in/);
  });
});

describe("bench/office-extraction's inputs", () => {
  it("takes a file as well as a folder, and refuses what it cannot extract by name", () => {
    const out = mkdtempSync(join(tmpdir(), "grk-office-bench-"));
    try {
      const r = tool("office-extraction", ["--runs", "1", "--out", out, "test/fixtures/office/handbook.docx"]);
      expect(r.code, r.stderr).toBe(0);
      const results = JSON.parse(readFileSync(join(out, "office-extraction.json"), "utf8")) as { files: number; results: Array<{ file: string }> };
      expect(results.files).toBe(1);
      expect(results.results[0]!.file).toBe(join(ROOT, "test/fixtures/office/handbook.docx"));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    expectUsageLine(tool("office-extraction", ["no/such/file.docx"]), /no\/such\/file\.docx: no such file or folder/);
    expectUsageLine(tool("office-extraction", ["package.json"]), /package\.json is not one of \.docx/);
    expectUsageLine(tool("office-extraction", ["test/fixtures"]), /no \.docx .* file in test\/fixtures/);
  });
});

describe("bench/run --store postgres", () => {
  // Each refused before PostgreSQL starts: a value the benchmark cannot use is a usage line, not a stack trace or NaN.
  it.each(["--bogus", "--chunks 0", "--seconds x", "--clients 2.5", "--only bm26", "--fsync maybe"])("answers %s with one usage line and exit 2", (args) => {
    const r = tool("run", ["--store", "postgres", ...args.split(" ")]);
    expect(r.stderr).toMatch(/^bench: /);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.code, r.stderr).toBe(2);
  });

  it("lists its options on --help", () => {
    const r = tool("run", ["--store", "postgres", "--help"]);
    expect(r.code, r.stderr).toBe(0);
    for (const option of ["--chunks", "--seconds", "--clients", "--only", "--fsync", "--cpu-lock"]) expect(r.stdout).toContain(option);
  });
});

describe("an interrupted PostgreSQL benchmark", () => {
  it("stops the server it started and deletes its data and scratch folder on SIGTERM", { timeout: 180_000 }, async () => {
    // The tool's own temp folder (TMPDIR), so what it leaves there is its own; the server's user must reach it.
    const tmp = mkdtempSync(join(tmpdir(), "grk-bench-interrupt-"));
    chmodSync(tmp, 0o755);
    try {
      const child = spawn(process.execPath, [join(ROOT, ".tools-build/bench/postgres-bm25.js"), "--chunks", "20000"], {
        cwd: ROOT,
        env: { ...process.env, TMPDIR: tmp },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      const clusters = (): string[] => readdirSync(tmp).filter((d) => existsSync(join(tmp, d, "data", "PG_VERSION")));
      // The server is up once the corpus is being written (the tool logs it after starting PostgreSQL).
      while (!/corpus:/.test(stderr) && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
      expect(clusters()).toHaveLength(1);
      child.kill("SIGTERM");
      expect(await exited).toBe(143);
      expect(readdirSync(tmp)).toEqual([]);
      expect(spawnSync("pgrep", ["-f", tmp], { encoding: "utf8" }).stdout.trim()).toBe("");
    } finally {
      // Whatever a failing run left: its server (by the data folder's postmaster) and files.
      spawnSync("pkill", ["-INT", "-f", tmp]);
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
