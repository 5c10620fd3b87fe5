/**
 * Embeddings from any sentence-transformers ONNX export in a local directory
 * (the layout `optimum` and the Hugging Face hub use: `config.json`,
 * `tokenizer.json`, `onnx/model.onnx`), run by transformers.js on
 * onnxruntime-node with remote models disabled: nothing is ever downloaded.
 *
 * Pooling (mean over the attention mask, or the [CLS] state), L2
 * normalization, query/document prefixes (e5 wants `query: ` / `passage: `)
 * and max-length truncation are configuration. The identity's model string
 * is the directory name plus a hash of the files that decide the output, and
 * the pooling settings, so a changed model or setting is a different identity.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { GroundkitError } from "../core/errors.js";
import { loadOptional } from "../core/optional-packages.js";
import { createBatchedProvider, type EmbeddingProvider } from "./provider.js";

/** How token states become one sentence vector. */
export type Pooling = "mean" | "cls";

/** Options for {@link createOnnxProvider}. */
export interface OnnxProviderOptions {
  /** The model directory (absolute or relative to the working directory). */
  model_dir: string;
  /** Default "mean" (what most sentence-transformers models use); "cls" for BGE-style models. */
  pooling?: Pooling;
  /** L2-normalize vectors. Default true. */
  normalize?: boolean;
  query_prefix?: string;
  document_prefix?: string;
  /** Tokens per text after truncation. Default: the tokenizer's limit, capped by the model's positions, else 512. */
  max_length?: number;
  /** Texts per inference call. Default 16. */
  batch_size?: number;
}

type Transformers = typeof import("@huggingface/transformers");

/** The bits of a transformers.js tensor we read. */
interface TensorLike {
  dims: number[];
  data: ArrayLike<number | bigint>;
}

/** The bits of a transformers.js tokenizer we call. */
export type TokenizerLike = ((
  text: string,
  options: { text_pair?: string; return_tensor: false },
) => { input_ids: number[]; token_type_ids?: number[] }) & {
  encode(text: string, options: { add_special_tokens: boolean }): number[];
  model_max_length?: unknown;
  pad_token_id?: unknown;
};

/** The bits of a transformers.js model we call. */
export interface ModelLike {
  (inputs: ModelInputs): Promise<Record<string, TensorLike>>;
  dispose(): Promise<unknown>;
  config?: Record<string, unknown>;
}

let transformers: Promise<Transformers> | undefined;

/**
 * Import transformers.js once (it is large; only ONNX users pay for it) and
 * lock it to local files: no remote models, no download cache.
 */
export function loadTransformers(): Promise<Transformers> {
  // transformers.js imports onnxruntime-node itself: either may be the missing one.
  const load = () => loadOptional("onnxruntime-node", () => import("@huggingface/transformers"));
  transformers ??= loadOptional("@huggingface/transformers", load).then((t) => {
    t.env.allowRemoteModels = false;
    t.env.allowLocalModels = true;
    t.env.useBrowserCache = false;
    // The file cache is keyed by model id alone; a local directory must never be answered from it.
    t.env.useFSCache = false;
    return t;
  });
  return transformers;
}

const REQUIRED_FILES = ["config.json", "tokenizer.json", join("onnx", "model.onnx")];

/**
 * Resolve and check a model directory: it must exist and hold config.json,
 * tokenizer.json and onnx/model.onnx.
 *
 * @throws GroundkitError INVALID_CONFIG naming the directory and what is missing
 */
export async function resolveModelDirectory(dir: string, what: string): Promise<string> {
  const abs = resolve(dir);
  const info = await stat(abs).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) {
    throw new GroundkitError("INVALID_CONFIG", `The ${what} directory ${abs} does not exist or is not a directory.`, {
      model_dir: abs,
    });
  }
  const missing: string[] = [];
  for (const file of REQUIRED_FILES) {
    const f = await stat(join(abs, file)).catch(() => undefined);
    if (f === undefined || !f.isFile()) missing.push(file);
  }
  if (missing.length > 0) {
    throw new GroundkitError(
      "INVALID_CONFIG",
      `The ${what} directory ${abs} lacks ${missing.join(", ")}; point it at an ONNX export (config.json, tokenizer.json, onnx/model.onnx).`,
      { model_dir: abs, missing },
    );
  }
  return abs;
}

/**
 * SHA-256 (first 12 hex digits) over the files that decide a model's output:
 * config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx* (external
 * weights included), each framed by its name and size. Streams, so a 1 GB model is fine.
 */
export async function hashModelDirectory(dir: string): Promise<string> {
  const onnxFiles = (await readdir(join(dir, "onnx")))
    .filter((f) => f === "model.onnx" || f.startsWith("model.onnx_data"))
    .sort()
    .map((f) => `onnx/${f}`);
  const files = ["config.json", "tokenizer.json", "tokenizer_config.json", ...onnxFiles];
  const hash = createHash("sha256");
  for (const rel of files) {
    const path = join(dir, ...rel.split("/"));
    const info = await stat(path).catch(() => undefined);
    if (info === undefined || !info.isFile()) continue;
    hash.update(`${rel}\0${info.size}\0`);
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  }
  return hash.digest("hex").slice(0, 12);
}

/**
 * The longest input the model accepts: the tokenizer's `model_max_length`
 * capped by the config's `max_position_embeddings`, else 512.
 */
export async function modelTokenLimit(dir: string, tokenizer: TokenizerLike): Promise<number> {
  const config = JSON.parse(await readFile(join(dir, "config.json"), "utf8")) as Record<string, unknown>;
  const limits = [tokenizer.model_max_length, config["max_position_embeddings"]].filter(
    (v): v is number => typeof v === "number" && Number.isInteger(v) && v > 0 && v < 1_000_000,
  );
  return limits.length > 0 ? Math.min(...limits) : 512;
}

/** Pick the effective max length and refuse one the model cannot take. */
export function effectiveMaxLength(requested: number | undefined, limit: number, what: string): number {
  if (requested === undefined) return limit;
  if (!Number.isInteger(requested) || requested < 2) {
    throw new GroundkitError("INVALID_CONFIG", `max_length must be an integer of at least 2, got ${requested}.`);
  }
  if (requested > limit) {
    throw new GroundkitError("INVALID_CONFIG", `max_length ${requested} exceeds the ${what}'s limit of ${limit} tokens.`);
  }
  return requested;
}

/** Where the special tokens of a single-text or text-pair encoding go, learned from a probe. */
interface Template {
  prefix: number[];
  middle: number[];
  suffix: number[];
  /** token_type_ids for prefix + A + middle + B + suffix positions. */
  types: { prefix: number[]; a: number; middle: number[]; b: number; suffix: number[] };
}

/** Index of `needle` as a contiguous run in `hay` at or after `from`, or -1. */
function indexOfRun(hay: number[], needle: number[], from: number): number {
  outer: for (let i = from; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Learn the special-token template by encoding probe words with and without
 * special tokens and locating the content: `[CLS] A [SEP]` / `[CLS] A [SEP] B [SEP]`
 * for BERT, `<s> A </s></s> B </s>` for XLM-R, and so on.
 */
function learnTemplate(tokenizer: TokenizerLike, pair: boolean): Template {
  const a = tokenizer.encode("hello", { add_special_tokens: false });
  const b = tokenizer.encode("world", { add_special_tokens: false });
  const full = pair
    ? tokenizer("hello", { text_pair: "world", return_tensor: false })
    : tokenizer("hello", { return_tensor: false });
  const ids = full.input_ids.map(Number);
  const types = (full.token_type_ids ?? ids.map(() => 0)).map(Number);
  const ia = indexOfRun(ids, a, 0);
  const ib = pair ? indexOfRun(ids, b, ia + a.length) : ia + a.length;
  if (a.length === 0 || ia < 0 || (pair && (b.length === 0 || ib < 0))) {
    throw new GroundkitError("INVALID_CONFIG", "Cannot work out where this tokenizer puts its special tokens.");
  }
  const afterB = pair ? ib + b.length : ia + a.length;
  return {
    prefix: ids.slice(0, ia),
    middle: pair ? ids.slice(ia + a.length, ib) : [],
    suffix: ids.slice(afterB),
    types: {
      prefix: types.slice(0, ia),
      a: types[ia] ?? 0,
      middle: pair ? types.slice(ia + a.length, ib) : [],
      b: pair ? (types[ib] ?? 0) : 0,
      suffix: types.slice(afterB),
    },
  };
}

/** Model inputs for one batch, right-padded. */
export type ModelInputs = Record<"input_ids" | "attention_mask" | "token_type_ids", TensorLike>;

/**
 * Encodes texts (or text pairs) into model inputs the way Python's
 * `tokenizers` truncates: content tokens are cut and the special tokens are
 * kept (transformers.js's own truncation cuts the final [SEP] instead). Pairs
 * are truncated longest-first, as sentence-transformers' CrossEncoder does.
 */
export interface InputEncoder {
  single(texts: string[], maxLength: number): ModelInputs;
  pair(first: string[], second: string[], maxLength: number): ModelInputs;
}

/** Build an {@link InputEncoder} for a loaded tokenizer. */
export function createInputEncoder(t: Transformers, tokenizer: TokenizerLike): InputEncoder {
  const singleTemplate = learnTemplate(tokenizer, false);
  let pairTemplate: Template | undefined;
  const padId = typeof tokenizer.pad_token_id === "number" ? tokenizer.pad_token_id : 0;

  const build = (rows: Array<{ ids: number[]; types: number[] }>): ModelInputs => {
    const width = Math.max(...rows.map((r) => r.ids.length));
    const ids = new BigInt64Array(rows.length * width).fill(BigInt(padId));
    const mask = new BigInt64Array(rows.length * width);
    const types = new BigInt64Array(rows.length * width);
    rows.forEach((row, r) => {
      row.ids.forEach((id, j) => {
        ids[r * width + j] = BigInt(id);
        mask[r * width + j] = 1n;
        types[r * width + j] = BigInt(row.types[j]!);
      });
    });
    const dims = [rows.length, width];
    return {
      input_ids: new t.Tensor("int64", ids, dims) as unknown as TensorLike,
      attention_mask: new t.Tensor("int64", mask, dims) as unknown as TensorLike,
      token_type_ids: new t.Tensor("int64", types, dims) as unknown as TensorLike,
    };
  };

  return {
    single(texts, maxLength) {
      const tpl = singleTemplate;
      const budget = maxLength - tpl.prefix.length - tpl.suffix.length;
      if (budget < 1) throw new GroundkitError("INVALID_CONFIG", `max_length ${maxLength} leaves no room for text.`);
      return build(
        texts.map((text) => {
          const content = tokenizer.encode(text, { add_special_tokens: false }).slice(0, budget);
          return {
            ids: [...tpl.prefix, ...content, ...tpl.suffix],
            types: [...tpl.types.prefix, ...content.map(() => tpl.types.a), ...tpl.types.suffix],
          };
        }),
      );
    },
    pair(first, second, maxLength) {
      pairTemplate ??= learnTemplate(tokenizer, true);
      const tpl = pairTemplate;
      const budget = maxLength - tpl.prefix.length - tpl.middle.length - tpl.suffix.length;
      if (budget < 2) throw new GroundkitError("INVALID_CONFIG", `max_length ${maxLength} leaves no room for a text pair.`);
      return build(
        first.map((text, i) => {
          const a = tokenizer.encode(text, { add_special_tokens: false });
          const b = tokenizer.encode(second[i]!, { add_special_tokens: false });
          // longest_first: drop the last token of the longer side (the second on ties) until it fits.
          let la = a.length;
          let lb = b.length;
          while (la + lb > budget) {
            if (la > lb) la--;
            else lb--;
          }
          return {
            ids: [...tpl.prefix, ...a.slice(0, la), ...tpl.middle, ...b.slice(0, lb), ...tpl.suffix],
            types: [
              ...tpl.types.prefix,
              ...new Array<number>(la).fill(tpl.types.a),
              ...tpl.types.middle,
              ...new Array<number>(lb).fill(tpl.types.b),
              ...tpl.types.suffix,
            ],
          };
        }),
      );
    },
  };
}

/** Pool `[batch, seq, hidden]` token states into one vector per row. */
export function poolTokenStates(states: TensorLike, mask: TensorLike, pooling: Pooling): Float32Array[] {
  const [batch, seq, hidden] = states.dims as [number, number, number];
  const data = states.data as ArrayLike<number>;
  const out: Float32Array[] = [];
  for (let b = 0; b < batch; b++) {
    // Accumulate in doubles: the sum must not depend on float32 rounding order.
    const acc = new Float64Array(hidden);
    if (pooling === "cls") {
      const base = b * seq * hidden;
      for (let h = 0; h < hidden; h++) acc[h] = data[base + h]!;
    } else {
      let count = 0;
      for (let s = 0; s < seq; s++) {
        if (Number(mask.data[b * seq + s]) === 0) continue;
        count++;
        const base = (b * seq + s) * hidden;
        for (let h = 0; h < hidden; h++) acc[h]! += data[base + h]!;
      }
      for (let h = 0; h < hidden; h++) acc[h] = acc[h]! / Math.max(count, 1);
    }
    out.push(Float32Array.from(acc));
  }
  return out;
}

/**
 * Create an ONNX embedding provider over a local model directory. Loads the
 * tokenizer and the model, hashes the files, and runs one probe text to learn
 * the width.
 *
 * @throws GroundkitError INVALID_CONFIG for a missing or incomplete directory or a bad max_length;
 *   EMBEDDING_FAILED when the model cannot be loaded or has no token-state output
 * @example
 *   const p = await createOnnxProvider({ model_dir: "./models/multilingual-e5-small",
 *     query_prefix: "query: ", document_prefix: "passage: " });
 */
export async function createOnnxProvider(opts: OnnxProviderOptions): Promise<EmbeddingProvider> {
  const dir = await resolveModelDirectory(opts.model_dir, "ONNX embedding model");
  const pooling = opts.pooling ?? "mean";
  const normalize = opts.normalize ?? true;
  const source = `ONNX model ${dir}`;
  const t = await loadTransformers();

  let tokenizer: TokenizerLike;
  let model: ModelLike;
  try {
    // An absolute path is used as-is; transformers.js would otherwise memoize configs by bare name.
    tokenizer = (await t.AutoTokenizer.from_pretrained(dir, { local_files_only: true })) as unknown as TokenizerLike;
    model = (await t.AutoModel.from_pretrained(dir, { local_files_only: true, dtype: "fp32" })) as unknown as ModelLike;
  } catch (err) {
    throw new GroundkitError(
      "EMBEDDING_FAILED",
      `Cannot load ${source}: ${err instanceof Error ? err.message : String(err)}`,
      { model_dir: dir },
      { cause: err },
    );
  }
  const maxLength = effectiveMaxLength(opts.max_length, await modelTokenLimit(dir, tokenizer), "model");
  const encoder = createInputEncoder(t, tokenizer);
  const hash = await hashModelDirectory(dir);

  const embedRaw = async (texts: string[]): Promise<Float32Array[]> => {
    const inputs = encoder.single(texts, maxLength);
    let outputs: Record<string, TensorLike>;
    try {
      outputs = await model(inputs);
    } catch (err) {
      throw new GroundkitError(
        "EMBEDDING_FAILED",
        `${source} failed during inference: ${err instanceof Error ? err.message : String(err)}`,
        { model_dir: dir },
        { cause: err },
      );
    }
    const states = outputs["last_hidden_state"] ?? outputs["token_embeddings"];
    if (states === undefined || states.dims.length !== 3) {
      throw new GroundkitError(
        "EMBEDDING_FAILED",
        `${source} has no [batch, sequence, hidden] output named last_hidden_state or token_embeddings (outputs: ${Object.keys(outputs).join(", ")}).`,
        { model_dir: dir },
      );
    }
    return poolTokenStates(states, inputs.attention_mask, pooling);
  };

  return createBatchedProvider({
    provider: "onnx",
    model: `${basename(dir)}@${hash};pooling=${pooling};normalize=${normalize};max_length=${maxLength}`,
    query_prefix: opts.query_prefix ?? "",
    document_prefix: opts.document_prefix ?? "",
    batchSize: opts.batch_size ?? 16,
    concurrency: 1,
    sortByLength: true,
    normalize,
    source,
    embedRaw,
    close: async () => {
      await model.dispose();
    },
  });
}
