/**
 * A dense collection stays dense whichever surface ingests into it (issue 26): a plain `grk ingest`
 * (no --dense) and the REST ingest tool embed the new chunks of a collection that already has vectors,
 * as `grk update` and the watchers always did. One rule decides it (collection/dense-ingest.ts).
 * Uses the tiny generated ONNX embedder, so nothing leaves the machine.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { closeEmbeddingProviders } from "../src/embed/binding.js";
import type { EmbeddingConfig } from "../src/embed/registry.js";
import { grk, tempDir } from "./support/cli.js";
import { http, startTestServer } from "./service-fixtures.js";

let work: { dir: string; cleanup: () => void };
let docs: string;
let indexDir: string;
let embedding: EmbeddingConfig;

beforeAll(() => {
  work = tempDir("grk-stays-dense-");
  docs = join(work.dir, "docs");
  mkdirSync(docs);
  writeFileSync(join(docs, "backup.md"), "# Backups\n\nNightly snapshots are copied to object storage.\n");
  const models = join(work.dir, "models");
  execFileSync(process.execPath, [join(process.cwd(), "scripts", "make-tiny-models.mjs"), models], { stdio: "pipe" });
  embedding = { provider: "onnx", model_dir: join(models, "tiny-embedder") };
  writeFileSync(join(work.dir, "groundkit.config.json"), JSON.stringify({ embedding }));
  indexDir = join(work.dir, ".groundkit");
  const first = grk(["ingest", "docs", "--dense"], { cwd: work.dir });
  expect(first.code, first.stderr).toBe(0);
});
afterAll(async () => {
  await closeEmbeddingProviders();
  work.cleanup();
});

/** Chunks and vectors of the default collection. */
async function counts(): Promise<{ chunks: number; vectors: number }> {
  const col = await openCollection({ indexDir });
  try {
    const { chunks, vectors } = await col.status();
    return { chunks, vectors };
  } finally {
    await col.close();
  }
}

it("a plain `grk ingest` into a dense collection embeds the new chunks", async () => {
  const before = await counts();
  expect(before.vectors).toBe(before.chunks);
  writeFileSync(join(docs, "tls.md"), "# Certificates\n\nTLS certificates renew thirty days before they expire.\n");
  const res = grk(["ingest", "docs", "--json"], { cwd: work.dir });
  expect(res.code, res.stderr).toBe(0);
  expect(JSON.parse(res.stdout)).toMatchObject({ indexed: 1, vectors_written: expect.any(Number) });
  const after = await counts();
  expect(after.chunks).toBeGreaterThan(before.chunks);
  expect(after.vectors).toBe(after.chunks);
});

it("the REST ingest tool into a dense collection embeds the new chunks", async () => {
  const token = "stays-dense-token";
  const server = await startTestServer({ indexDir, allowedRoots: [docs], settings: { embedding } }, { token });
  try {
    const before = await counts();
    writeFileSync(join(docs, "cache.md"), "# Cache\n\nThe cache evicts the least recently used pages.\n");
    const res = await http(server, "POST", "/v1/collections/default/ingest", {
      body: { inputs: ["."] },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ indexed: 1, failed: [] });
    expect(res.json.vectors_written).toBeGreaterThan(0);
    const after = await counts();
    expect(after.chunks).toBeGreaterThan(before.chunks);
    expect(after.vectors).toBe(after.chunks);
  } finally {
    await server.close();
  }
});
