/**
 * The eval embedding cache: a rerun of a dense BEIR eval answers every chunk
 * from the cache (same vectors, same scores), a changed document is the only
 * one embedded again, and the report keeps embedding time apart from
 * retrieval time. Uses the tiny generated ONNX embedder (fast, real runtime).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeEmbeddingProviders } from "../src/embed/binding.js";
import { evaluateBeir, type HarnessOptions } from "../src/eval/harness.js";
import { tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let dataset: string;
let options: HarnessOptions;

const DOCS = [
  { _id: "d1", title: "Backups", text: "Nightly snapshots are copied to object storage." },
  { _id: "d2", title: "Certificates", text: "TLS certificates renew thirty days before they expire." },
  { _id: "d3", title: "Cache", text: "The cache evicts the least recently used entries." },
];

function writeDataset(docs: typeof DOCS): void {
  writeFileSync(join(dataset, "corpus.jsonl"), docs.map((d) => JSON.stringify(d)).join("\n") + "\n");
}

beforeAll(() => {
  work = tempDir("grk-eval-cache-");
  const models = join(work.dir, "models");
  execFileSync(process.execPath, [join(process.cwd(), "scripts", "make-tiny-models.mjs"), models], { stdio: "pipe" });
  dataset = join(work.dir, "beir");
  mkdirSync(join(dataset, "qrels"), { recursive: true });
  writeDataset(DOCS);
  writeFileSync(
    join(dataset, "queries.jsonl"),
    [{ _id: "q1", text: "when do certificates expire" }, { _id: "q2", text: "object storage snapshots" }].map((q) => JSON.stringify(q)).join("\n") + "\n",
  );
  writeFileSync(join(dataset, "qrels", "test.tsv"), "query-id\tcorpus-id\tscore\nq1\td2\t1\nq2\td1\t1\n");
  options = {
    settings: { chunkSize: 2400, chunkOverlap: 0 },
    stages: { dense: true, collection: { embedding: { provider: "onnx", model_dir: join(models, "tiny-embedder") } } },
    latencyRuns: 0,
    embeddingCacheFile: join(work.dir, "cache", "eval-vectors.sqlite3"),
  };
});
afterAll(async () => {
  await closeEmbeddingProviders();
  work.cleanup();
});

describe("eval embedding cache", () => {
  it("embeds on the first run, answers from the cache on the rerun with identical results, re-embeds only a change", async () => {
    const first = await evaluateBeir(dataset, "test", options);
    expect(first.timings).toMatchObject({ embed_cache_hits: 0, embed_cache_misses: 3 });
    expect(first.timings!.embed_ms).toEqual(expect.any(Number));

    const second = await evaluateBeir(dataset, "test", options);
    expect(second.timings).toMatchObject({ embed_cache_hits: 3, embed_cache_misses: 0, embed_ms: 0 });
    expect(second.stages.map((s) => s.aggregate)).toEqual(first.stages.map((s) => s.aggregate));

    writeDataset([DOCS[0]!, { ...DOCS[1]!, text: "TLS certificates renew sixty days before expiry." }, DOCS[2]!]);
    const third = await evaluateBeir(dataset, "test", options);
    expect(third.timings).toMatchObject({ embed_cache_hits: 2, embed_cache_misses: 1 });
  });

  it("embeds everything when no cache file is given", async () => {
    const report = await evaluateBeir(dataset, "test", { ...options, embeddingCacheFile: undefined });
    expect(report.timings).toMatchObject({ embed_cache_hits: 0, embed_cache_misses: 0 });
  });
});
