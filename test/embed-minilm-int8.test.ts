/**
 * The int8 MiniLM (integer matrix products, docs/decisions/0033-int8-inference.md):
 * a model identity of its own whose graph is built from the packaged weights and
 * cached beside the fp32 one; its vectors stay close to fp32's on real text (the
 * golden corpus cut into window-sized pieces) without being fp32's; a text's vector
 * does not depend on what it is embedded with; a new collection gets it by default
 * while one embedded before (fp32) keeps fp32.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { closeEmbeddingProviders } from "../src/embed/binding.js";
import { BERT_GRAPH_VERSION } from "../src/embed/minilm/bert-graph.js";
import { createMiniLMProvider } from "../src/embed/minilm/provider.js";
import type { EmbeddingProvider } from "../src/embed/provider.js";
import { tempDir } from "./support/cli.js";
import { cosineSimilarity } from "./support/cosine.js";

/**
 * Lowest cosine to fp32 accepted on these texts. Measured on them: min 0.9912, mean 0.9940; over 15,479 BEIR
 * abstracts (MED, CISI, CACM, NPL): min 0.9818, p1 0.990, mean 0.994 (docs/decisions/0033-int8-inference.md). The
 * margin below 0.991 leaves room for another CPU's integer kernels; a wrong scale or weight layout falls far below.
 */
const MIN_COSINE = 0.985;

/** The golden corpus's Markdown cut at whitespace into ~1,000-character texts (about one 256-token window each). */
function realTexts(): string[] {
  const dir = join(import.meta.dirname, "..", "evals", "corpus");
  const stream = readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("\n\n");
  const out: string[] = [];
  for (let at = 0; at < stream.length && out.length < 24; ) {
    const space = stream.indexOf(" ", at + 1000);
    const end = space < 0 ? stream.length : space;
    out.push(stream.slice(at, end).trim());
    at = end + 1;
  }
  return out;
}

let cache: { dir: string; cleanup: () => void };
let fp32: EmbeddingProvider;
let int8: EmbeddingProvider;
const texts = realTexts();

beforeAll(async () => {
  cache = tempDir("grk-minilm-int8-");
  // A fresh cache directory: the int8 graph under test is built by this run.
  [fp32, int8] = await Promise.all([
    createMiniLMProvider({ cache_dir: cache.dir }),
    createMiniLMProvider({ cache_dir: cache.dir, precision: "int8" }),
  ]);
}, 180_000);
afterAll(async () => {
  await Promise.all([fp32?.close?.(), int8?.close?.()]);
  await closeEmbeddingProviders();
  cache.cleanup();
});

describe("int8 MiniLM", () => {
  it("is an identity of its own, with its graph cached beside the fp32 one", () => {
    const hash = /^all-MiniLM-L6-v2@([0-9a-f]{12});/.exec(fp32.identity.model)?.[1];
    expect(hash).toBeDefined();
    expect(int8.identity).toMatchObject({ provider: "local", dimensions: 384 });
    expect(int8.identity.model).toBe(fp32.identity.model.replace("all-MiniLM-L6-v2@", "all-MiniLM-L6-v2-int8@"));
    expect(readdirSync(join(cache.dir, "models")).sort()).toEqual([
      `all-MiniLM-L6-v2-${hash}-bert-g${BERT_GRAPH_VERSION}.onnx`,
      `all-MiniLM-L6-v2-int8-${hash}-bert-g${BERT_GRAPH_VERSION}.onnx`,
    ]);
  });

  it(`gives real texts vectors within cosine ${MIN_COSINE} of fp32's, but not fp32's own`, async () => {
    expect(texts.length).toBe(24);
    const [a, b] = await Promise.all([fp32.embedDocuments(texts), int8.embedDocuments(texts)]);
    const cosines = texts.map((_, i) => cosineSimilarity(a[i]!, b[i]!));
    for (const [i, c] of cosines.entries()) expect(c, `text ${i}: ${JSON.stringify(texts[i]!.slice(0, 40))}`).toBeGreaterThanOrEqual(MIN_COSINE);
    // Integer arithmetic really ran: float MatMuls would agree to ~1e-7.
    expect(Math.min(...cosines)).toBeLessThan(0.9999);
  }, 180_000);

  it("embeds a text alike alone (a query) and among others (documents on the worker sessions)", async () => {
    const docs = await int8.embedDocuments(texts.slice(0, 8));
    for (const [i, text] of texts.slice(0, 8).entries()) {
      expect(cosineSimilarity(await int8.embedQuery(text), docs[i]!), `text ${i}`).toBeGreaterThan(0.99999);
    }
  }, 180_000);

  it("refuses batched windows, which would make a vector depend on its batch mates", async () => {
    await expect(createMiniLMProvider({ cache_dir: cache.dir, precision: "int8", batch_size: 4 })).rejects.toMatchObject({
      code: "INVALID_CONFIG",
      message: expect.stringContaining("batch_size must be 1"),
    });
  });
});

describe("a collection keeps the precision it was embedded with", () => {
  let work: { dir: string; cleanup: () => void };
  let indexDir: string;
  beforeAll(async () => {
    work = tempDir("grk-int8-binding-");
    const docs = join(work.dir, "docs");
    mkdirSync(docs);
    writeFileSync(join(docs, "tls.md"), "# Certificates\n\nTLS certificates renew automatically thirty days before they expire.\n");
    writeFileSync(join(docs, "cache.md"), "# Cache\n\nThe cache evicts the least recently used entries.\n");
    indexDir = join(work.dir, "idx");
    // "old": what the default recorded before int8 existed ({"provider": "local"}); "new": no configuration at all.
    for (const [name, embedding] of [
      ["old", { provider: "local" }],
      ["new", undefined],
    ] as const) {
      const col = await openCollection({ indexDir, collection: name, create: true, ...(embedding ? { embedding } : {}) });
      expect((await col.ingest([docs], { dense: true })).failed).toEqual([]);
      await col.close();
    }
  }, 180_000);
  afterAll(() => work.cleanup());

  it("records the identity (int8 for a new collection, fp32 kept for an old one) and searches with it unconfigured", async () => {
    for (const [name, model] of [
      ["old", /^all-MiniLM-L6-v2@/],
      ["new", /^all-MiniLM-L6-v2-int8@/],
    ] as const) {
      const col = await openCollection({ indexDir, collection: name });
      try {
        expect((await col.status()).embedding).toMatchObject({ provider: "local", model: expect.stringMatching(model), dimensions: 384 });
        const hits = await col.search("when do certificates expire", { mode: "dense" });
        expect(hits[0]?.citation.source).toMatch(/tls\.md$/);
      } finally {
        await col.close();
      }
    }
  }, 180_000);

  it("refuses the other precision, naming both identities", async () => {
    const col = await openCollection({ indexDir, collection: "old", embedding: { provider: "local", precision: "int8" } });
    try {
      const err = await col.search("certificates", { mode: "dense" }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "EMBEDDING_MISMATCH" });
      expect((err as Error).message).toContain("all-MiniLM-L6-v2@");
      expect((err as Error).message).toContain("all-MiniLM-L6-v2-int8@");
    } finally {
      await col.close();
    }
  }, 180_000);
});
