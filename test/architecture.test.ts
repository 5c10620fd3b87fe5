/**
 * The structure drawn from the imports (docs/architecture.md): no arrow points
 * up the layers (the lint rule, checked here on a deliberate violation) and no
 * module cycle exists in src/, type-only imports included.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ALLOWED } from "../eslint-rules/layers.js";

const ROOT = resolve(import.meta.dirname, "..");
const SRC = join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Relative imports of every module of src/ (static, dynamic and type-only), as absolute .ts paths. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    graph.set(
      file,
      info.importedFiles.map((f) => f.fileName).filter((s) => s.startsWith(".")).map((s) => resolve(dirname(file), s).replace(/\.js$/, ".ts")),
    );
  }
  return graph;
}

function findCycles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, "open" | "done">();
  const cycles: string[][] = [];
  const visit = (u: string, stack: string[]) => {
    state.set(u, "open");
    stack.push(u);
    for (const v of graph.get(u) ?? []) {
      if (!graph.has(v)) continue;
      if (state.get(v) === "open") cycles.push([...stack.slice(stack.indexOf(v)), v].map((p) => relative(ROOT, p)));
      else if (!state.has(v)) visit(v, stack);
    }
    stack.pop();
    state.set(u, "done");
  };
  for (const u of graph.keys()) if (!state.has(u)) visit(u, []);
  return cycles;
}

describe("architecture", () => {
  it("has no import cycle in src/, type-only imports included", () => {
    expect(findCycles(importGraph())).toEqual([]);
  });

  it("names a layer for every folder of src/", () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    for (const f of folders) expect(Object.keys(ALLOWED), `src/${f}/`).toContain(f);
  });

  it("fails lint when store/ imports from retrieve/, and passes a downward import", async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const lint = async (path: string, code: string) => (await eslint.lintText(code, { filePath: join(SRC, path) }))[0]!.messages;
    const upward = await lint("store/sqlite/bad.ts", 'import { rrfFuse } from "../../retrieve/fusion.js";\nexport const f = rrfFuse;\n');
    expect(upward.map((m) => m.ruleId)).toContain("groundkit/layers");
    expect(upward.find((m) => m.ruleId === "groundkit/layers")?.message).toMatch(/store\/ may not import from retrieve\//);
    const downward = await lint("retrieve/ok.ts", 'import { GroundkitError } from "../core/errors.js";\nexport const e = GroundkitError;\n');
    expect(downward.filter((m) => m.ruleId === "groundkit/layers")).toEqual([]);
  });

  it("keeps store/sqlite/ and store/postgres/ private to store/ (lint)", async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const lint = async (path: string, code: string) => (await eslint.lintText(code, { filePath: join(SRC, path) }))[0]!.messages;
    const leak = await lint("collection/bad.ts", 'import { SqliteStore } from "../store/sqlite/sqlite-store.js";\nexport const s = SqliteStore;\n');
    expect(leak.find((m) => m.ruleId === "groundkit/layers")?.message).toMatch(/private to store\//);
    const typeLeak = await lint("cli/bad.ts", 'import type { PostgresStoreConfig } from "../store/postgres/connection-settings.js";\nexport type C = PostgresStoreConfig;\n');
    expect(typeLeak.find((m) => m.ruleId === "groundkit/layers")?.message).toMatch(/private to store\//);
    const inside = await lint("store/ok.ts", 'export const load = () => import("./sqlite/backend.js");\n');
    expect(inside.filter((m) => m.ruleId === "groundkit/layers")).toEqual([]);
    const registry = await lint("collection/ok.ts", 'import { backendOf } from "../store/backends.js";\nexport const b = backendOf;\n');
    expect(registry.filter((m) => m.ruleId === "groundkit/layers")).toEqual([]);
  });

  it("names no store backend outside src/store/, and never blocks on Atomics.wait", () => {
    const backendName = /\b(?:SqliteStore|PostgresStore|SqliteEngine)\b|["'](?:sqlite|postgres)["']/;
    const leaks: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, "utf8");
      const rel = relative(SRC, file);
      text.split("\n").forEach((line, i) => {
        if (/\bAtomics\.wait\b/.test(line)) leaks.push(`${rel}:${i + 1}: Atomics.wait`);
        if (!rel.startsWith(`store/`) && backendName.test(line)) leaks.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(leaks).toEqual([]);
  });
});
