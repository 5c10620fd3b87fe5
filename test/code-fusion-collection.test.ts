/**
 * Hybrid fusion of code chunks through a real collection (ADR 0034): the `code_dense_weight` setting reaches
 * the search pipeline, and at 0 a code-only collection's hybrid order is BM25's. Tiny generated ONNX embedder.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type OpenCollectionOptions } from "../src/collection/index.js";
import { closeEmbeddingProviders } from "../src/embed/binding.js";
import { tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let indexDir: string;
let models: string;

/** One function per file, the query word `token` in it 6, 4, 3, 2 and 1 times: BM25 ranks them in that order. */
const FILES: Record<string, string> = Object.fromEntries(
  [6, 4, 3, 2, 1, 0, 0].map((n, i) => [
    `src/f${i}.ts`,
    `export function step${i}(input: string): string {\n${"  input = token(input);\n".repeat(n)}  return input.trim() + "${"abcdefg"[i]!.repeat(i + 1)}";\n}\n`,
  ]),
);

function options(extra: Partial<OpenCollectionOptions> = {}): OpenCollectionOptions {
  return { indexDir, embedding: { provider: "onnx", model_dir: join(models, "tiny-embedder") }, ...extra };
}

beforeAll(async () => {
  work = tempDir("grk-code-fusion-");
  const repo = join(work.dir, "repo");
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(join(repo, rel, ".."), { recursive: true });
    writeFileSync(join(repo, rel), text);
  }
  models = join(work.dir, "models");
  execFileSync(process.execPath, [join(process.cwd(), "scripts", "make-tiny-models.mjs"), models], { stdio: "pipe" });
  indexDir = join(work.dir, "idx");
  const col = await openCollection(options({ create: true }));
  expect((await col.ingest([repo], { dense: true })).failed).toEqual([]);
  await col.close();
});
afterAll(async () => {
  await closeEmbeddingProviders();
  work.cleanup();
});

describe("hybrid search of code through a collection", () => {
  it("orders code by BM25 alone at code_dense_weight 0, and by the dense side at 1", async () => {
    // Every dense neighbour counts (floor -1), so the dense side holds every chunk.
    const sources = (hits: Array<{ citation: { source: string } }>) => hits.map((h) => h.citation.source.replace(/^.*\/src\//, ""));
    const lexicalOnly = await openCollection(options({ retrieval: { denseMinScore: -1, codeDenseWeight: 0 } }));
    const denseOnly = await openCollection(options({ retrieval: { denseMinScore: -1, codeDenseWeight: 1 } }));
    try {
      const bm25 = sources(await lexicalOnly.search("token", { mode: "bm25", topK: 7 }));
      expect(bm25).toEqual(["f0.ts", "f1.ts", "f2.ts", "f3.ts", "f4.ts"]);
      const hybrid = sources(await lexicalOnly.search("token", { mode: "hybrid", topK: 7 }));
      // Min-max scaling gives BM25's last hit 0, as for chunks BM25 did not find, so it ties with those.
      expect(hybrid.slice(0, 4)).toEqual(bm25.slice(0, 4));
      expect(hybrid).toHaveLength(7);
      const dense = sources(await denseOnly.search("token", { mode: "dense", topK: 7 }));
      expect(sources(await denseOnly.search("token", { mode: "hybrid", topK: 7 }))).toEqual(dense);
    } finally {
      await lexicalOnly.close();
      await denseOnly.close();
    }
  });
});
