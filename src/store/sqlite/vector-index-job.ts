/**
 * Worker thread (vector-index-thread.ts starts it), on a connection of its own:
 * - a writer's job: fold a collection file's vector log into its saved HNSW
 *   index, or build the index anew; the process that started it holds the
 *   collection's writer lock for it, and its readers keep serving meanwhile (WAL);
 * - a reader's job: build the graph of the committed vectors into a private file
 *   the reader maps (read-only connection: nothing beside the collection is written).
 */
import { parentPort, workerData } from "node:worker_threads";
import { GroundkitError } from "../../core/errors.js";
import { SqliteEngine } from "./sqlite-engine.js";
import type { GraphJob, VectorIndexJob, VectorIndexJobMessage } from "./vector-index-thread.js";

const job = workerData as VectorIndexJob | GraphJob;
const post = (m: VectorIndexJobMessage): void => parentPort!.postMessage(m);

let engine: SqliteEngine | undefined;
try {
  if ("graphFile" in job) {
    engine = SqliteEngine.open(job.path, { create: false, readonly: true, vectorIndex: job.vectorIndex });
    post({ type: "graph", graph: engine.buildVectorGraph(job.graphFile) });
  } else {
    engine = SqliteEngine.open(job.path, { create: false, readonly: false, vectorIndex: job.vectorIndex });
    const onProgress = (done: number, total: number): void => post({ type: "progress", done, total });
    const status = job.rebuild ? engine.rebuildVectorIndex(onProgress) : engine.syncVectorIndex(onProgress);
    post({ type: "done", status });
  }
} catch (err) {
  const error = err instanceof GroundkitError ? { code: err.code, message: err.message, detail: err.detail } : { message: err instanceof Error ? err.message : String(err) };
  post({ type: "error", error });
} finally {
  engine?.close();
}
