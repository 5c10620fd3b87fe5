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
parentPort.on("message", async (job) => {
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
    parentPort.postMessage({ id: job.id, data }, [data.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: job.id, error: String(err && err.message ? err.message : err) });
  }
});
`;

interface Job {
  id: number;
  batch: PaddedBatch;
  resolve: (data: Float32Array) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
}

type WorkerReply = { id: number; data: Float32Array } | { id: number; error: string };

/** A lazily grown pool of single-threaded sessions; a batch goes to the first idle one. */
export class SessionWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private readonly ortPath = createRequire(import.meta.url).resolve("onnxruntime-node");

  /**
   * @param size workers (each one core)
   * @param graph the graph every worker loads
   * @param output the graph output whose data is returned
   * @param source names the model in error messages
   */
  constructor(
    private readonly size: number,
    private readonly graph: GraphSource,
    private readonly output: string,
    private readonly source: string,
  ) {}

  /** Run one padded batch on an idle worker; resolves with the output's data. */
  run(batch: PaddedBatch): Promise<Float32Array> {
    if (this.closed) return Promise.reject(this.failure("the provider has been closed"));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, batch, resolve, reject });
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
      const { ids, mask, rows, width } = job.batch;
      slot.worker.postMessage({ id: job.id, ids, mask, rows, width }, [ids.buffer, mask.buffer]);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ort: this.ortPath, graph: this.graph, output: this.output } });
    const slot: Slot = { worker, job: undefined };
    this.slots.push(slot);
    worker.on("message", (reply: WorkerReply) => {
      const job = slot.job;
      if (job === undefined || job.id !== reply.id) return;
      slot.job = undefined;
      worker.unref();
      if ("error" in reply) job.reject(this.failure(reply.error));
      else job.resolve(reply.data);
      this.pump();
    });
    const lost = (why: string): void => {
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      slot.job?.reject(this.failure(why));
      slot.job = undefined;
      if (!this.closed) this.pump();
    };
    worker.on("error", (err) => lost(err.message));
    worker.on("exit", (code) => lost(`its inference worker exited with code ${code}`));
    return slot;
  }

  /** Stop every worker; queued batches are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(this.failure("the provider was closed"));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots.length = 0;
  }

  private failure(why: string): GroundkitError {
    return new GroundkitError("EMBEDDING_FAILED", `${this.source} failed during inference: ${why}.`);
  }
}
