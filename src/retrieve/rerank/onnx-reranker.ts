/**
 * A local cross-encoder (e.g. an ONNX export of `cross-encoder/ms-marco-MiniLM-L-6-v2`
 * or `BAAI/bge-reranker-base`) run by transformers.js on onnxruntime-node,
 * offline. Each (query, passage) pair is encoded as one text pair
 * (`[CLS] query [SEP] passage [SEP]`, truncated to max_length), and the
 * logit becomes a 0..1 score by the sigmoid (one-logit models) or by the
 * softmax probability of the positive class (two-logit models).
 *
 * No npm package ships cross-encoder weights: the user exports or downloads a
 * model directory once (config.json, tokenizer.json, onnx/model.onnx) and
 * points `model_dir` at it.
 */
import { basename } from "node:path";
import { GroundkitError } from "../../core/errors.js";
import {
  createInputEncoder,
  effectiveMaxLength,
  hashModelDirectory,
  loadTransformers,
  modelTokenLimit,
  resolveModelDirectory,
  type ModelLike,
  type TokenizerLike,
} from "../../embed/onnx.js";
import { checkScores, sigmoid, type Reranker } from "./reranker.js";

/** Options for {@link createOnnxReranker}. */
export interface OnnxRerankerOptions {
  /** The cross-encoder directory (absolute or relative to the working directory). */
  model_dir: string;
  /** Tokens per (query, passage) pair after truncation. Default: the model's limit, else 512. */
  max_length?: number;
  /** Pairs per inference call. Default 16. */
  batch_size?: number;
}

/** Turn a [batch, labels] logits tensor into one 0..1 score per row. */
function scoresFromLogits(logits: { dims: number[]; data: ArrayLike<number | bigint> }, source: string): number[] {
  const [rows, labels] = logits.dims as [number, number];
  const data = logits.data as ArrayLike<number>;
  if (logits.dims.length !== 2 || (labels !== 1 && labels !== 2)) {
    throw new GroundkitError(
      "RERANK_FAILED",
      `${source} outputs logits of shape [${logits.dims.join(", ")}]; a cross-encoder has [batch, 1] or [batch, 2].`,
      { source },
    );
  }
  const out: number[] = [];
  for (let r = 0; r < rows; r++) {
    // Two labels: softmax probability of label 1 equals sigmoid(l1 - l0).
    const logit = labels === 1 ? data[r]! : data[r * 2 + 1]! - data[r * 2]!;
    out.push(sigmoid(logit));
  }
  return out;
}

/**
 * Load a local cross-encoder directory.
 *
 * @throws GroundkitError INVALID_CONFIG (missing or incomplete directory, bad max_length), RERANK_FAILED (cannot load)
 * @example
 *   const r = await createOnnxReranker({ model_dir: "./models/ms-marco-MiniLM-L-6-v2" });
 *   await r.rerank("what is bm25?", ["BM25 is a ranking function…", "Unrelated text"]); // [0.97, 0.01]
 */
export async function createOnnxReranker(opts: OnnxRerankerOptions): Promise<Reranker> {
  const dir = await resolveModelDirectory(opts.model_dir, "ONNX cross-encoder");
  const batchSize = opts.batch_size ?? 16;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new GroundkitError("INVALID_CONFIG", `batch_size must be a positive integer, got ${batchSize}.`);
  }
  const source = `ONNX cross-encoder ${dir}`;
  const t = await loadTransformers();
  let tokenizer: TokenizerLike;
  let model: ModelLike;
  try {
    tokenizer = (await t.AutoTokenizer.from_pretrained(dir, { local_files_only: true })) as unknown as TokenizerLike;
    model = (await t.AutoModelForSequenceClassification.from_pretrained(dir, {
      local_files_only: true,
      dtype: "fp32",
    })) as unknown as ModelLike;
  } catch (err) {
    throw new GroundkitError(
      "RERANK_FAILED",
      `Cannot load ${source}: ${err instanceof Error ? err.message : String(err)}`,
      { model_dir: dir },
      { cause: err },
    );
  }
  const maxLength = effectiveMaxLength(opts.max_length, await modelTokenLimit(dir, tokenizer), "cross-encoder");
  const encoder = createInputEncoder(t, tokenizer);
  const identity = `onnx:${basename(dir)}@${await hashModelDirectory(dir)};max_length=${maxLength}`;
  let closed = false;

  return {
    identity,
    async rerank(query, passages) {
      if (closed) throw new GroundkitError("RERANK_FAILED", `${source}: the reranker has been closed.`);
      const scores: number[] = [];
      for (let i = 0; i < passages.length; i += batchSize) {
        const batch = passages.slice(i, i + batchSize);
        const inputs = encoder.pair(
          batch.map(() => query),
          batch,
          maxLength,
        );
        let outputs: Record<string, { dims: number[]; data: ArrayLike<number | bigint> }>;
        try {
          outputs = await model(inputs);
        } catch (err) {
          throw new GroundkitError(
            "RERANK_FAILED",
            `${source} failed during inference: ${err instanceof Error ? err.message : String(err)}`,
            { model_dir: dir },
            { cause: err },
          );
        }
        const logits = outputs["logits"];
        if (logits === undefined) {
          throw new GroundkitError("RERANK_FAILED", `${source} has no "logits" output.`, { model_dir: dir });
        }
        scores.push(...scoresFromLogits(logits, source));
      }
      return checkScores(scores, passages.length, source);
    },
    async close() {
      if (closed) return;
      closed = true;
      await model.dispose();
    },
  };
}
