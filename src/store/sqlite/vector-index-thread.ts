/**
 * The HNSW index is built (or the vector log folded into it) on a worker
 * thread (vector-index-job.ts), never on the calling process's event loop: a
 * build takes minutes to hours at scale, and a serving process must keep
 * answering meanwhile (issue 26). A sync or rebuild is a writer's (the caller
 * holds the collection's writer lock); a graph build is a reader's: the worker
 * builds the graph of the committed vectors into a private file the reader
 * then maps, and saves nothing beside the collection (docs/decisions/0036).
 */
import { workerEntry } from "../../core/worker-entry.js";
import { Worker } from "node:worker_threads";
import { ERROR_CATALOGUE, GroundkitError, type ErrorCode } from "../../core/errors.js";
import type { VectorIndexStatus } from "../store.js";
import type { AnnOptions } from "./ann-options.js";
import type { AnnSettings } from "./ann-native.js";
import type { VectorState } from "./vector-log.js";

/** What the worker is asked to do: fold the log into the saved index, or (`rebuild`) build it anew. */
export interface VectorIndexJob {
  path: string;
  vectorIndex: AnnOptions | undefined;
  /** Discard the saved files and build anew (a damaged index), instead of folding the log in. */
  rebuild: boolean;
}

/** A reader's job: the graph of every committed vector, saved to `graphFile` (a private temporary file) only. */
export interface GraphJob {
  path: string;
  vectorIndex: AnnOptions | undefined;
  graphFile: string;
}

/** What a graph job built: the state it holds and how to open its file. */
export interface BuiltGraph {
  state: VectorState;
  settings: AnnSettings;
  library: string;
  count: number;
}

export type VectorIndexJobMessage =
  | { type: "progress"; done: number; total: number }
  | { type: "done"; status: VectorIndexStatus }
  | { type: "graph"; graph: BuiltGraph }
  | { type: "error"; error: { code?: string | undefined; message: string; detail?: Record<string, unknown> | undefined } };

/** Run the job on a worker thread; resolves with the index's status after it. */
export function runVectorIndexJob(job: VectorIndexJob, onProgress?: (done: number, total: number) => void): Promise<VectorIndexStatus> {
  return startJob<VectorIndexStatus>(job, (m) => (m.type === "done" ? { value: m.status } : undefined), onProgress).result;
}

/** A graph build in flight: its result, and a way to stop it (the handle is closing). */
export interface GraphBuild {
  result: Promise<BuiltGraph>;
  stop(): Promise<void>;
}

/**
 * Build a reader's graph on a worker thread. The thread does not keep the process alive: a process that is
 * done (a CLI search, a server shutting down) exits with a build in flight, and the build dies with it.
 */
export function buildGraphOnThread(job: GraphJob): GraphBuild {
  const started = startJob<BuiltGraph>(job, (m) => (m.type === "graph" ? { value: m.graph } : undefined));
  started.worker.unref();
  return {
    result: started.result,
    stop: async () => {
      await started.worker.terminate();
    },
  };
}

function startJob<T>(
  job: VectorIndexJob | GraphJob,
  resultOf: (m: VectorIndexJobMessage) => { value: T } | undefined,
  onProgress?: (done: number, total: number) => void,
): { worker: Worker; result: Promise<T> } {
  const entry = workerEntry(import.meta.url, "vector-index-job");
  const worker = new Worker(entry.url, { workerData: job, ...(entry.execArgv ? { execArgv: entry.execArgv } : {}) });
  const result = new Promise<T>((resolve, reject) => {
    let settled = false;
    worker.on("message", (m: VectorIndexJobMessage) => {
      if (m.type === "progress") {
        onProgress?.(m.done, m.total);
        return;
      }
      settled = true;
      if (m.type === "error") {
        const { code, message, detail } = m.error;
        reject(code !== undefined && Object.hasOwn(ERROR_CATALOGUE, code) ? new GroundkitError(code as ErrorCode, message, detail) : new Error(message));
        return;
      }
      const out = resultOf(m);
      if (out !== undefined) resolve(out.value);
      else reject(new GroundkitError("INTERNAL", `The vector index worker answered ${m.type}, not the job's result.`));
    });
    worker.on("error", (err) => {
      settled = true;
      reject(err);
    });
    worker.on("exit", (code) => {
      if (!settled) reject(new GroundkitError("INTERNAL", `The vector index worker stopped (exit code ${code}) before it finished.`));
    });
  });
  return { worker, result };
}
