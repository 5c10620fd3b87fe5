/**
 * The ONNX cross-encoder on a tiny handmade model (scripts/make-tiny-models.mjs)
 * whose logit is 6 * (share of the query's distinct words found in the passage) - 3.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { createOnnxReranker } from "../src/retrieve/rerank/onnx-reranker.js";
import type { Reranker } from "../src/retrieve/rerank/reranker.js";
import { sigmoid } from "../src/retrieve/rerank/reranker.js";
import { createReranker, parseRerankerConfig } from "../src/retrieve/rerank/registry.js";

let root: string;
let rerankerDir: string;
const opened: Reranker[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "grk-rerank-"));
  execFileSync(process.execPath, [join(process.cwd(), "scripts", "make-tiny-models.mjs"), root], { stdio: "pipe" });
  rerankerDir = join(root, "tiny-reranker");
});

afterAll(async () => {
  await Promise.all(opened.map((r) => r.close?.()));
  rmSync(root, { recursive: true, force: true });
});

async function reranker(opts: { max_length?: number; batch_size?: number } = {}): Promise<Reranker> {
  const r = await createOnnxReranker({ model_dir: rerankerDir, ...opts });
  opened.push(r);
  return r;
}

describe("onnx reranker", () => {
  it("scores text pairs jointly and maps logits through the sigmoid", async () => {
    const r = await reranker();
    expect(r.identity).toMatch(/^onnx:tiny-reranker@[0-9a-f]{12};max_length=512$/);
    const scores = await r.rerank("cat mat", ["the cat sat on the mat", "a cat", "dogs run fast"]);
    expect(scores[0]).toBeCloseTo(sigmoid(3), 5);
    expect(scores[1]).toBeCloseTo(sigmoid(0), 5);
    expect(scores[2]).toBeCloseTo(sigmoid(-3), 5);
  });

  it("gives the same scores in any batch size, and [] for no passages", async () => {
    const passages = ["the cat sat", "a dog", "cat and dog", "mat", "the cat on the mat with a dog"];
    const big = await (await reranker()).rerank("cat dog mat", passages);
    const small = await (await reranker({ batch_size: 2 })).rerank("cat dog mat", passages);
    small.forEach((s, i) => expect(s).toBeCloseTo(big[i]!, 6));
    expect(big.every((s) => s >= 0 && s <= 1)).toBe(true);
    expect(await (await reranker()).rerank("cat", [])).toEqual([]);
  });

  it("truncates the longer side of a pair to max_length, keeping the separators", async () => {
    const r = await reranker({ max_length: 7 });
    // [CLS] cat [SEP] + 3 passage tokens + [SEP] = 7: the trailing "cat" is cut away.
    const [cut] = await r.rerank("cat", ["dog dog dog cat"]);
    const [whole] = await (await reranker()).rerank("cat", ["dog dog dog cat"]);
    expect(cut).toBeCloseTo(sigmoid(-3), 5);
    expect(whole).toBeCloseTo(sigmoid(3), 5);
  });

  it("is created through the registry; a directory without a cross-encoder head is refused", async () => {
    const r = await createReranker(parseRerankerConfig({ provider: "onnx", model_dir: rerankerDir }));
    opened.push(r);
    expect((await r.rerank("cat", ["cat"]))[0]).toBeCloseTo(sigmoid(3), 5);

    const embedder = await createOnnxReranker({ model_dir: join(root, "tiny-embedder") }).then(
      (x) => {
        opened.push(x);
        return x.rerank("cat", ["cat"]);
      },
    ).catch((e: unknown) => e);
    expect(embedder).toBeInstanceOf(GroundkitError);
    expect((embedder as GroundkitError).code).toBe("RERANK_FAILED");

    const missing = await createOnnxReranker({ model_dir: join(root, "absent") }).catch((e: unknown) => e);
    expect((missing as GroundkitError).code).toBe("INVALID_CONFIG");
  });
});
