/**
 * A lazily grown pool of model worker threads, each taking one job at a time;
 * a job goes to the first idle worker. Used by the bundled local models
 * (`use-lite` in local.ts, MiniLM in minilm/session-pool.ts), whose runtimes
 * compute on the thread that calls them.
 *
 * Protocol: the pool posts `{ id, input }`; the worker answers
 * `{ id, output }` or `{ id, error: string }`. Idle workers never keep the
 * process alive; a worker that dies fails its job, and the next job starts a
 * fresh one.
 */
import type { Transferable, Worker } from "node:worker_threads";
import type { GroundkitError } from "../core/errors.js";

/** How a pool makes workers and reports failures. */
export interface WorkerPoolSpec<In> {
  /** Most workers at once. */
  size: number;
  /** Start one worker. */
  spawn: () => Worker;
  /** The error a failed job rejects with, from a short reason. */
  failure: (why: string) => GroundkitError;
  /** Buffers of an input moved to the worker rather than copied. */
  transfer?: (input: In) => Transferable[];
}

interface Job<In, Out> {
  id: number;
  input: In;
  resolve: (output: Out) => void;
  reject: (err: Error) => void;
}

interface Slot<In, Out> {
  worker: Worker;
  job: Job<In, Out> | undefined;
}

type WorkerReply<Out> = { id: number; output: Out } | { id: number; error: string };

/** See the module comment. */
export class WorkerPool<In, Out> {
  private readonly slots: Array<Slot<In, Out>> = [];
  private readonly queue: Array<Job<In, Out>> = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly spec: WorkerPoolSpec<In>) {}

  /** Run one job on an idle worker (starting one if the pool is not full). */
  run(input: In): Promise<Out> {
    if (this.closed) return Promise.reject(this.spec.failure("the provider has been closed"));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, input, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === undefined);
      if (slot === undefined && this.slots.length < this.spec.size) slot = this.start();
      if (slot === undefined) return;
      const job = this.queue.shift()!;
      slot.job = job;
      // Keep the process alive only while work is in flight.
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, input: job.input }, this.spec.transfer?.(job.input) ?? []);
    }
  }

  private start(): Slot<In, Out> {
    const worker = this.spec.spawn();
    const slot: Slot<In, Out> = { worker, job: undefined };
    this.slots.push(slot);
    worker.on("message", (reply: WorkerReply<Out>) => {
      const job = slot.job;
      if (job === undefined || job.id !== reply.id) return;
      slot.job = undefined;
      worker.unref();
      if ("error" in reply) job.reject(this.spec.failure(reply.error));
      else job.resolve(reply.output);
      this.pump();
    });
    const lost = (why: string): void => {
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      slot.job?.reject(this.spec.failure(why));
      slot.job = undefined;
      if (!this.closed) this.pump();
    };
    worker.on("error", (err) => lost(err.message));
    worker.on("exit", (code) => lost(`its model worker exited with code ${code}`));
    return slot;
  }

  /** Stop every worker; queued jobs are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(this.spec.failure("the provider was closed"));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots.length = 0;
  }
}
