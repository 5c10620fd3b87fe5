/**
 * The ONNX provider on a tiny handmade sentence-transformer that
 * scripts/make-tiny-models.mjs writes into a temp dir: real tokenizer, real
 * onnxruntime inference, our pooling, normalization, prefixes and truncation.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { createOnnxProvider } from "../src/embed/onnx.js";
import type { EmbeddingProvider } from "../src/embed/provider.js";
import { createEmbeddingProvider } from "../src/embed/registry.js";
import { cosineSimilarity } from "./support/cosine.js";

let root: string;
let modelDir: string;
const opened: EmbeddingProvider[] = [];

function makeModels(dir: string): void {
  execFileSync(process.execPath, [join(process.cwd(), "scripts", "make-tiny-models.mjs"), dir], { stdio: "pipe" });
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "grk-onnx-"));
  makeModels(join(root, "a"));
  modelDir = join(root, "a", "tiny-embedder");
});

afterAll(async () => {
  await Promise.all(opened.map((p) => p.close?.()));
  rmSync(root, { recursive: true, force: true });
});

async function provider(opts: Partial<Parameters<typeof createOnnxProvider>[0]> = {}): Promise<EmbeddingProvider> {
  const p = await createOnnxProvider({ model_dir: modelDir, ...opts });
  opened.push(p);
  return p;
}

/** Two sentences sharing most words, and an unrelated one (all in the tiny vocabulary). */
const SIMILAR = ["cats chase kittens in the garden", "kittens chase cats in a garden", "the team won the football game"];

const cos = cosineSimilarity;

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((s, x) => s + x * x, 0));
}

describe("tiny model generator", () => {
  it("writes byte-identical files on every run", () => {
    makeModels(join(root, "b"));
    for (const name of ["tiny-embedder", "tiny-reranker"]) {
      for (const file of ["config.json", "tokenizer.json", "tokenizer_config.json", join("onnx", "model.onnx")]) {
        const a = readFileSync(join(root, "a", name, file));
        const b = readFileSync(join(root, "b", name, file));
        expect(a.equals(b), `${name}/${file}`).toBe(true);
      }
    }
  });
});

describe("onnx embedding provider", () => {
  it("has an identity naming the directory, a hash of its files and the pooling settings", async () => {
    const p = await provider();
    expect(p.identity.provider).toBe("onnx");
    expect(p.identity.model).toMatch(/^tiny-embedder@[0-9a-f]{12};pooling=mean;normalize=true;max_length=512$/);
    expect(p.identity.dimensions).toBe(32);
    expect(p.identity.query_prefix).toBe("");
    expect(p.identity.document_prefix).toBe("");
  });

  it("returns unit vectors, deterministically, independent of batch mates and padding", async () => {
    const p = await provider({ batch_size: 4 });
    const texts = ["the cat sat on the mat", "dogs", "a very long sentence about music and guitar and piano playing"];
    const [a, b] = [await p.embedDocuments(texts), await p.embedDocuments(texts)];
    for (let i = 0; i < texts.length; i++) {
      expect(norm(a[i]!)).toBeCloseTo(1, 5);
      expect(Buffer.from(a[i]!.buffer).equals(Buffer.from(b[i]!.buffer))).toBe(true);
    }
    // "dogs" was padded to the long text's length above; alone it has no padding.
    const [alone] = await p.embedDocuments(["dogs"]);
    for (let i = 0; i < 32; i++) expect(alone![i]).toBeCloseTo(a[1]![i]!, 6);
  });

  it("puts sentences that share words closer than unrelated ones", async () => {
    const p = await provider();
    const [cat1, cat2, game] = await p.embedDocuments(SIMILAR);
    expect(cos(cat1!, cat2!)).toBeGreaterThan(cos(cat1!, game!) + 0.3);
  });

  it("CLS pooling is a different identity and a different vector", async () => {
    const mean = await provider();
    const cls = await provider({ pooling: "cls" });
    expect(cls.identity.model).toContain(";pooling=cls;");
    const [m] = await mean.embedDocuments(SIMILAR.slice(0, 1));
    const [c, c2, c3] = await cls.embedDocuments(SIMILAR);
    expect(cos(m!, c!)).toBeLessThan(0.99);
    expect(norm(c!)).toBeCloseTo(1, 5);
    // The tiny model mixes the whole input into the [CLS] state, so CLS vectors still track content.
    expect(cos(c!, c2!)).toBeGreaterThan(cos(c!, c3!) + 0.1);
  });

  it("normalize: false keeps the raw pooled length but the same direction", async () => {
    const raw = await provider({ normalize: false });
    const unit = await provider();
    expect(raw.identity.model).toContain(";normalize=false;");
    const [r] = await raw.embedDocuments(["the cat sat on the mat"]);
    const [u] = await unit.embedDocuments(["the cat sat on the mat"]);
    expect(Math.abs(norm(r!) - 1)).toBeGreaterThan(0.01);
    expect(cos(r!, u!)).toBeCloseTo(1, 5);
  });

  it("prepends the query prefix to queries and the document prefix to documents", async () => {
    const prefixed = await provider({ query_prefix: "query: ", document_prefix: "passage: " });
    const plain = await provider();
    expect(prefixed.identity.query_prefix).toBe("query: ");
    expect(prefixed.identity.document_prefix).toBe("passage: ");
    const q = await prefixed.embedQuery("cat on a mat");
    const [d] = await prefixed.embedDocuments(["cat on a mat"]);
    const [expectQ, expectD, bare] = await plain.embedDocuments(["query: cat on a mat", "passage: cat on a mat", "cat on a mat"]);
    // Batch mates change float rounding only.
    for (let i = 0; i < 32; i++) {
      expect(q[i]).toBeCloseTo(expectQ![i]!, 6);
      expect(d![i]).toBeCloseTo(expectD![i]!, 6);
    }
    expect(cos(q, bare!)).toBeLessThan(0.9999);
  });

  it("truncates to max_length tokens", async () => {
    // [CLS] + 4 word tokens + [SEP] = 6: everything after the fourth word is cut.
    const short = await provider({ max_length: 6 });
    const full = await provider();
    expect(short.identity.model).toContain(";max_length=6");
    const texts = ["the cat sat on the mat", "the cat sat on a red car"];
    const [s1, s2] = await short.embedDocuments(texts);
    expect(Array.from(s1!)).toEqual(Array.from(s2!));
    // Content is cut, the final [SEP] is kept: the same as the untruncated four words.
    const [four] = await short.embedDocuments(["the cat sat on"]);
    for (let i = 0; i < 32; i++) expect(s1![i]).toBeCloseTo(four![i]!, 6);
    const [f1, f2] = await full.embedDocuments(texts);
    expect(cos(f1!, f2!)).toBeLessThan(0.99);
  });

  it("refuses a max_length beyond the model's limit", async () => {
    const err = await createOnnxProvider({ model_dir: modelDir, max_length: 4096 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GroundkitError);
    expect((err as GroundkitError).code).toBe("INVALID_CONFIG");
    expect((err as GroundkitError).message).toContain("512");
  });

  it("identity follows the files' content, not their location", async () => {
    const copy = join(root, "copy", "tiny-embedder");
    cpSync(modelDir, copy, { recursive: true });
    const original = await provider();
    const sameBytes = await provider({ model_dir: copy });
    expect(sameBytes.identity).toEqual(original.identity);

    appendFileSync(join(copy, "tokenizer_config.json"), " ");
    const changed = await provider({ model_dir: copy });
    expect(changed.identity.model).not.toBe(original.identity.model);
    expect(changed.identity.model.startsWith("tiny-embedder@")).toBe(true);
  });

  it("refuses a missing or incomplete model directory with what is missing", async () => {
    const missing = await createOnnxProvider({ model_dir: join(root, "nope") }).catch((e: unknown) => e);
    expect((missing as GroundkitError).code).toBe("INVALID_CONFIG");
    expect((missing as GroundkitError).message).toContain("does not exist");

    const partial = join(root, "partial");
    cpSync(modelDir, partial, { recursive: true });
    rmSync(join(partial, "onnx"), { recursive: true });
    const err = await createOnnxProvider({ model_dir: partial }).catch((e: unknown) => e);
    expect((err as GroundkitError).code).toBe("INVALID_CONFIG");
    expect((err as GroundkitError).message).toContain(join("onnx", "model.onnx"));
  });

  it("is created through the registry and never writes into the model directory", async () => {
    const before = readdirSync(modelDir).map((f) => [f, statSync(join(modelDir, f)).mtimeMs]);
    const p = await createEmbeddingProvider({ provider: "onnx", model_dir: modelDir, pooling: "mean" });
    opened.push(p);
    expect(p.identity.dimensions).toBe(32);
    expect(await p.embedQuery("cat")).toHaveLength(32);
    expect(readdirSync(modelDir).map((f) => [f, statSync(join(modelDir, f)).mtimeMs])).toEqual(before);
  });
});
