/**
 * The HNSW index is built (or the vector log folded into it) on a worker
 * thread (vector-index-job.ts), never on the calling process's event loop: a
 * build takes minutes to hours at scale, and a serving process must keep
 * answering meanwhile (issue 26). The caller holds the collection's writer lock.
 */
import { workerEntry } from "../../core/worker-entry.js";
import { Worker } from "node:worker_threads";
import { ERROR_CATALOGUE, GroundkitError, type ErrorCode } from "../../core/errors.js";
import type { VectorIndexStatus } from "../store.js";
import type { AnnOptions } from "./ann-index.js";

/** What the worker is asked to do. */
export interface VectorIndexJob {
  path: string;
  vectorIndex: AnnOptions | undefined;
  /** Discard the saved files and build anew (a damaged index), instead of folding the log in. */
  rebuild: boolean;
}

export type VectorIndexJobMessage =
  | { type: "progress"; done: number; total: number }
  | { type: "done"; status: VectorIndexStatus }
  | { type: "error"; error: { code?: string | undefined; message: string; detail?: Record<string, unknown> | undefined } };

/** Run the job on a worker thread; resolves with the index's status after it. */
export function runVectorIndexJob(job: VectorIndexJob, onProgress?: (done: number, total: number) => void): Promise<VectorIndexStatus> {
  const entry = workerEntry(import.meta.url, "vector-index-job");
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = new Worker(entry.url, { workerData: job, ...(entry.execArgv ? { execArgv: entry.execArgv } : {}) });
    worker.on("message", (m: VectorIndexJobMessage) => {
      if (m.type === "progress") onProgress?.(m.done, m.total);
      else if (m.type === "done") {
        settled = true;
        resolve(m.status);
      } else {
        settled = true;
        const { code, message, detail } = m.error;
        reject(code !== undefined && Object.hasOwn(ERROR_CATALOGUE, code) ? new GroundkitError(code as ErrorCode, message, detail) : new Error(message));
      }
    });
    worker.on("error", (err) => {
      settled = true;
      reject(err);
    });
    worker.on("exit", (code) => {
      if (!settled) reject(new GroundkitError("INTERNAL", `The vector index worker stopped (exit code ${code}) before it finished.`));
    });
  });
}
