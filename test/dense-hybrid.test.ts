/**
 * Dense, hybrid and rerank wired through the collection: refusal without
 * vectors (with the remedy), backfill on an existing BM25 collection, identity
 * mismatch naming both, filters on every mode, hybrid abstention, reembed swap.
 * Uses the tiny generated ONNX models (fast) and, once, the real local model
 * through the CLI.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type OpenCollectionOptions } from "../src/collection/index.js";
import { closeEmbeddingProviders } from "../src/embed/binding.js";
import { grk, tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let docs: string;
let models: string;
let indexDir: string;

const DOCS: Record<string, string> = {
  "guides/backup.md": "# Backups\n\nNightly snapshots are copied to object storage and restored with the restore command.\n",
  "guides/tls.md": "# Certificates\n\nTLS certificates renew automatically thirty days before they expire.\n",
  "notes/cache.md": "# Cache\n\nThe cache keeps rendered pages in memory and evicts the least recently used entries.\n",
  "notes/people.txt": "The on-call engineer answers pages within five minutes.\n",
};

function onnx(extra: Partial<OpenCollectionOptions> = {}): OpenCollectionOptions {
  return { indexDir, embedding: { provider: "onnx", model_dir: join(models, "tiny-embedder") }, ...extra };
}

beforeAll(async () => {
  work = tempDir("grk-dense-");
  docs = join(work.dir, "docs");
  for (const [rel, text] of Object.entries(DOCS)) {
    mkdirSync(join(docs, rel, ".."), { recursive: true });
    writeFileSync(join(docs, rel), text);
  }
  models = join(work.dir, "models");
  execFileSync(process.execPath, [join(process.cwd(), "scripts", "make-tiny-models.mjs"), models], { stdio: "pipe" });
  indexDir = join(work.dir, "idx");
  const col = await openCollection({ indexDir, create: true });
  expect((await col.ingest([docs])).failed).toEqual([]);
  await col.close();
});
afterAll(async () => {
  await closeEmbeddingProviders();
  work.cleanup();
});

describe("dense and hybrid retrieval", () => {
  it("refuses dense and hybrid search on a BM25-only collection, naming the remedy", async () => {
    const col = await openCollection(onnx());
    try {
      for (const mode of ["dense", "hybrid"] as const) {
        await expect(col.search("backups", { mode })).rejects.toMatchObject({
          code: "NO_VECTORS",
          message: expect.stringContaining("has no vectors"),
          hint: expect.stringContaining("--dense"),
        });
      }
    } finally {
      await col.close();
    }
  });

  it("backfills vectors for every chunk when --dense runs on an existing BM25 collection", async () => {
    const col = await openCollection(onnx());
    try {
      const summary = await col.ingest([docs], { dense: true });
      expect(summary.unchanged).toBe(4);
      expect(summary.vectors_written).toBe((await col.status()).chunks);
      expect(await col.status()).toMatchObject({ vectors: (await col.status()).chunks, embedding: { provider: "onnx" } });
      const again = await col.ingest([docs], { dense: true });
      expect(again.vectors_written).toBe(0);
    } finally {
      await col.close();
    }
  });

  it("searches dense and hybrid, with filters applied on every mode", async () => {
    const col = await openCollection(onnx());
    try {
      for (const mode of ["bm25", "dense", "hybrid"] as const) {
        const hits = await col.search("snapshots restored object storage", { mode });
        expect(hits.length, mode).toBeGreaterThan(0);
        expect(hits[0]!.citation.source, mode).toMatch(/backup\.md$/);
        const filtered = await col.search("snapshots restored object storage", { mode, filters: ["path=notes/**"] });
        for (const h of filtered) expect(h.citation.source, mode).toMatch(/\/notes\//);
      }
      const verified = await col.search("certificates renew", { mode: "hybrid", verify: true });
      expect(verified.every((h) => h.verification?.verdict === "verified")).toBe(true);
    } finally {
      await col.close();
    }
  });

  it("lets hybrid abstain when nothing matches lexically and dense similarity is under the threshold", async () => {
    const strict = await openCollection(onnx({ retrieval: { denseMinScore: 0.99 } }));
    try {
      expect(await strict.search("zzzqqq xylophone", { mode: "hybrid" })).toEqual([]);
      expect((await strict.search("certificates", { mode: "hybrid" })).length).toBeGreaterThan(0);
    } finally {
      await strict.close();
    }
  });

  it("refuses a different embedding identity, naming both", async () => {
    const col = await openCollection(onnx({ embedding: { provider: "onnx", model_dir: join(models, "tiny-embedder"), pooling: "cls" } }));
    try {
      const err = await col.search("backups", { mode: "dense" }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "EMBEDDING_MISMATCH" });
      expect((err as Error).message).toMatch(/pooling=mean/);
      expect((err as Error).message).toMatch(/pooling=cls/);
      await expect(col.ingest([docs], { dense: true })).rejects.toMatchObject({ code: "EMBEDDING_MISMATCH" });
    } finally {
      await col.close();
    }
  });

  it("reembeds with another identity and swaps atomically", async () => {
    const other = { provider: "onnx" as const, model_dir: join(models, "tiny-embedder"), pooling: "cls" as const };
    const col = await openCollection(onnx({ embedding: other }));
    try {
      const res = await col.reembed(other);
      expect(res.vectors_written).toBe((await col.status()).chunks);
      expect((await col.status()).embedding?.model).toMatch(/pooling=cls/);
      expect((await col.search("backups snapshots", { mode: "dense" })).length).toBeGreaterThan(0);
    } finally {
      await col.close();
    }
  });

  it("reranks with a cross-encoder, and says how to configure one when none is", async () => {
    const col = await openCollection(
      onnx({
        embedding: { provider: "onnx", model_dir: join(models, "tiny-embedder"), pooling: "cls" },
        reranker: { provider: "onnx", model_dir: join(models, "tiny-reranker") },
      }),
    );
    try {
      const hits = await col.search("certificates renew automatically", { mode: "hybrid", rerank: true });
      expect(hits[0]!.citation.source).toMatch(/tls\.md$/);
      expect(hits[0]!.score).toBeGreaterThan(0);
      expect(hits[0]!.score).toBeLessThanOrEqual(1);
    } finally {
      await col.close();
    }
    const plain = await openCollection({ indexDir });
    try {
      await expect(plain.search("x", { rerank: true })).rejects.toMatchObject({ code: "INVALID_CONFIG" });
    } finally {
      await plain.close();
    }
  });
});

describe("dense ingest with the real local model through the CLI", () => {
  it("embeds offline and answers a dense search", () => {
    const dir = join(work.dir, "cli");
    mkdirSync(dir);
    const res = grk(["ingest", docs, "--dense", "--json", "--index-dir", join(dir, "idx")], { cwd: dir });
    expect(res.code, res.stderr).toBe(0);
    const summary = JSON.parse(res.stdout);
    expect(summary.vectors_written).toBe(summary.chunks_written);
    const search = grk(["search", "when do certificates expire", "--mode", "dense", "--json", "--index-dir", join(dir, "idx")], { cwd: dir });
    expect(search.code, search.stderr).toBe(0);
    const out = JSON.parse(search.stdout);
    expect(out.mode).toBe("dense");
    expect(out.results[0].citation.source).toMatch(/tls\.md$/);
    const status = JSON.parse(grk(["status", "--json", "--index-dir", join(dir, "idx")], { cwd: dir }).stdout);
    expect(status.embedding).toMatchObject({ provider: "local", dimensions: 384, model: expect.stringMatching(/^all-MiniLM-L6-v2@/) });
  });
});
