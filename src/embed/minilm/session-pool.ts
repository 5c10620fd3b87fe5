/**
 * onnxruntime sessions of the MiniLM graph in worker threads, one intra-op
 * thread each. onnxruntime-node runs a session synchronously on the calling
 * thread, so sessions in one thread never overlap; two single-threaded
 * sessions on two cores skip the per-operator thread hand-offs of one
 * two-threaded session, and the main thread tokenizes the next batch while
 * they run (measured in docs/decisions/0008-long-chunk-embedding.md, "Speed").
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { GroundkitError } from "../../core/errors.js";
import { WorkerPool } from "../worker-pool.js";

/** One padded batch: int64 ids and 0/1 mask, row-major [rows, width]. */
export interface PaddedBatch {
  ids: BigInt64Array<ArrayBuffer>;
  mask: BigInt64Array<ArrayBuffer>;
  rows: number;
  width: number;
}

/** Where a worker loads the graph from: the cached file, or its bytes when the cache could not be written. */
export type GraphSource = string | Uint8Array;

/**
 * The worker's source, evaluated as CommonJS; the runtime's path comes in
 * through workerData so this works from `dist/` and under a TS test runner.
 * The session is created on the first batch; output rows go back transferred.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const ort = require(workerData.ort);
let session;
parentPort.on("message", async ({ id, input: job }) => {
  try {
    session ??= ort.InferenceSession.create(workerData.graph, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: "sequential",
      graphOptimizationLevel: "all",
    });
    const s = await session;
    const result = await s.run({
      input_ids: new ort.Tensor("int64", job.ids, [job.rows, job.width]),
      attention_mask: new ort.Tensor("int64", job.mask, [job.rows, job.width]),
    });
    const data = Float32Array.from(result[workerData.output].data);
    parentPort.postMessage({ id, output: data }, [data.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
});
`;

/**
 * Start a pool of `size` single-threaded sessions of `graph`, each answering a
 * padded batch with the data of the graph's `output`; `source` names the model
 * in error messages. Workers start on the first batch.
 */
export function createSessionPool(size: number, graph: GraphSource, output: string, source: string): WorkerPool<PaddedBatch, Float32Array> {
  const ort = createRequire(import.meta.url).resolve("onnxruntime-node");
  return new WorkerPool<PaddedBatch, Float32Array>({
    size,
    spawn: () => new Worker(WORKER_SOURCE, { eval: true, workerData: { ort, graph, output } }),
    failure: (why) => new GroundkitError("EMBEDDING_FAILED", `${source} failed during inference: ${why}.`),
    transfer: (batch) => [batch.ids.buffer, batch.mask.buffer],
  });
}
