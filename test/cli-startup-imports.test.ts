/**
 * A command imports only what it uses (issue 29): `grk --version` loads no command at all, and a
 * BM25 search loads neither the servers (fastify, the MCP SDK) nor the other commands, nor the
 * HTTP client, the PDF extractor, the local model or the tracing SDK. Checked on the modules a
 * real `dist/` process loads, never on time.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { CLI, grk, tempDir } from "./support/cli.js";

const LOGGER = resolve(import.meta.dirname, "support/module-log.mjs");

let work: { dir: string; cleanup: () => void };

beforeEach(() => {
  work = tempDir();
});
afterEach(() => work.cleanup());

/** The module URLs `grk args…` loads, relative to the package (node: built-ins left out). */
function modulesLoaded(args: string[]): string[] {
  const log = join(work.dir, `modules-${args[0]}.log`);
  writeFileSync(log, "");
  const res = spawnSync(process.execPath, ["--import", LOGGER, CLI, ...args], {
    cwd: work.dir,
    encoding: "utf8",
    env: { ...process.env, MODULE_LOG: log },
  });
  expect(res.stderr).toBe("");
  expect(res.status).toBe(0);
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((u) => u.startsWith("file:"));
}

const loads = (mods: string[], part: string): boolean => mods.some((u) => u.includes(part));

it("grk --version loads commander and nothing of the library's commands", () => {
  const mods = modulesLoaded(["--version"]);
  expect(mods.filter((u) => u.includes("/dist/cli/"))).toEqual([expect.stringContaining("/dist/cli/main.js")]);
  for (const part of ["/node_modules/zod/", "/node_modules/better-sqlite3/", "/node_modules/@opentelemetry/", "/dist/collection/collection.js"]) {
    expect(loads(mods, part), part).toBe(false);
  }
});

it("a BM25 grk search loads no server, no other command, no HTTP client, PDF reader, model or tracing SDK", () => {
  mkdirSync(join(work.dir, "docs"));
  writeFileSync(join(work.dir, "docs", "a.md"), "# Locks\n\nThe writer lock is held while a batch is written.\n");
  expect(grk(["ingest", "docs"], { cwd: work.dir }).code).toBe(0);
  const mods = modulesLoaded(["search", "writer lock"]);
  expect(loads(mods, "/dist/collection/collection.js")).toBe(true);
  for (const part of [
    "/node_modules/fastify/",
    "/node_modules/@modelcontextprotocol/",
    "/node_modules/undici/",
    "/node_modules/pdfjs-dist/",
    "/node_modules/onnxruntime-node/",
    "/node_modules/@huggingface/",
    "/node_modules/@opentelemetry/sdk-trace",
    "/dist/service/",
    "/dist/cli/ingest.js",
    "/dist/cli/serve.js",
    "/dist/ingest/ingest.js",
    "/dist/answer/answer.js",
    "/dist/collection/health.js",
  ]) {
    expect(loads(mods, part), part).toBe(false);
  }
});
