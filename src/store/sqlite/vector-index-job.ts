/**
 * Worker thread: fold a collection file's vector log into its saved HNSW
 * index, or build the index anew (vector-index-thread.ts starts it). It opens
 * the file on a connection of its own; the process that started it holds the
 * collection's writer lock for it, and its readers keep serving meanwhile (WAL).
 */
import { parentPort, workerData } from "node:worker_threads";
import { GroundkitError } from "../../core/errors.js";
import { SqliteEngine } from "./sqlite-engine.js";
import type { VectorIndexJob, VectorIndexJobMessage } from "./vector-index-thread.js";

const job = workerData as VectorIndexJob;
const post = (m: VectorIndexJobMessage): void => parentPort!.postMessage(m);

let engine: SqliteEngine | undefined;
try {
  engine = SqliteEngine.open(job.path, { create: false, readonly: false, vectorIndex: job.vectorIndex });
  const onProgress = (done: number, total: number): void => post({ type: "progress", done, total });
  const status = job.rebuild ? engine.rebuildVectorIndex(onProgress) : engine.syncVectorIndex(onProgress);
  post({ type: "done", status });
} catch (err) {
  const error = err instanceof GroundkitError ? { code: err.code, message: err.message, detail: err.detail } : { message: err instanceof Error ? err.message : String(err) };
  post({ type: "error", error });
} finally {
  engine?.close();
}
