/**
 * Extraction in bounded worker threads, so hostile bytes can neither freeze
 * the event loop (a server keeps answering) nor take the process's time and
 * memory (docs/decisions/0007-extraction-limits.md), and so one client's slow
 * files cannot hold everyone else's (docs/decisions/0024-extraction-cache-and-scheduling.md).
 *
 * A few warm workers ("lanes", two by default) each run one file at a time. Per file:
 * - time: a deadline from the moment the file is handed over; on overrun the
 *   worker is terminated, which stops even a synchronous loop;
 * - memory: the worker's heap is capped by `resourceLimits`, and because
 *   decoded PDF streams are ArrayBuffers outside that heap, the process's
 *   resident memory is sampled while the file runs: growing past the cap
 *   terminates the worker too;
 * - output: the extractors refuse text over the cap as they produce it.
 * A terminated worker is replaced on the next request; the request's extractor
 * is loaded into it before the request's deadline starts.
 *
 * Scheduling: jobs wait in one queue; a free lane takes the oldest job whose
 * client runs fewer than `lanes - 1` jobs (one at least), so a client's slow
 * file always leaves a lane to the others. Each client may have a bounded
 * number of jobs waiting (EXTRACTION_BUSY beyond it). A job whose signal
 * aborts is dropped from the queue, or, running, abandoned: its worker is
 * terminated (a parser cannot be interrupted) and replaced for the next job.
 */
import { workerEntry } from "../core/worker-entry.js";
import { Worker } from "node:worker_threads";
import { ERROR_CATALOGUE, GroundkitError, type ErrorCode } from "../core/errors.js";
import type { ExtractRequest, ProbeRequest, WorkerError, WorkerReply } from "./extraction-protocol.js";
import type { ExtractHints, ExtractOptions, ExtractedText, Extractor, ExtractorKind } from "./extractor.js";
import { DEFAULT_EXTRACTION_LIMITS, extractionLimit, resolveExtractionLimits, type ExtractionLimits } from "./limits.js";
import { cancelled, type JobOwner } from "./job-owner.js";

/** How often resident memory is sampled while a file is extracted. */
const MEMORY_SAMPLE_MS = 20;

const MIB = 1024 * 1024;

type OkReply = Extract<WorkerReply, { ok: true }>;
type RequestBody = Omit<ProbeRequest, "id"> | Omit<ExtractRequest, "id">;

interface InFlight {
  id: number;
  /** Fail the request at once (its job was cancelled); the worker is being terminated. */
  cancel: (err: Error) => void;
  settle: (reply: WorkerReply) => void;
  /** The worker died under this request: `outOfMemory` when its heap limit killed it. */
  lost: (why: string, outOfMemory: boolean) => void;
}

function errorFrom(error: WorkerError): Error {
  if (error.code !== undefined && Object.hasOwn(ERROR_CATALOGUE, error.code)) {
    return new GroundkitError(error.code as ErrorCode, error.message, error.detail);
  }
  // Not a deliberate refusal: a bug in an extractor, reported as such by the caller's boundary.
  return new Error(error.message);
}

/** One warm extraction worker: runs one request at a time under its limits. */
class Lane {
  private worker: Worker | undefined;
  private workerHeapMb = 0;
  private stopping: Promise<unknown> = Promise.resolve();
  private inFlight: InFlight | undefined;
  /** Kinds whose extractor the current worker has loaded. */
  private loadedKinds = new Set<ExtractorKind>();
  private nextId = 1;
  /** The job running here, if any. */
  job: Job | undefined;

  /**
   * A running worker whose heap is at least `heapMb` (any heap when undefined).
   * A larger heap is kept: each call's memory cap is enforced by the RSS sampler
   * anyway, and replacing the worker would load the extractors again.
   */
  async ensureWorker(heapMb: number | undefined): Promise<void> {
    if (this.worker !== undefined && (heapMb === undefined || this.workerHeapMb >= heapMb)) return;
    this.stop();
    await this.stopping;
    this.spawn(heapMb ?? DEFAULT_EXTRACTION_LIMITS.maxMemoryMb);
  }

  hasLoaded(kind: ExtractorKind): boolean {
    return this.loadedKinds.has(kind);
  }

  /** Load `kind`'s extractor in the current worker (bounded by the default deadline and the heap); its identity. */
  async load(kind: ExtractorKind, label: string | undefined): Promise<string> {
    const reply = await this.send({ op: "probe", kind }, { ...DEFAULT_EXTRACTION_LIMITS, maxMemoryMb: this.workerHeapMb }, label);
    this.loadedKinds.add(kind);
    return reply.identity;
  }

  /** Abandon whatever runs here: its request fails with `err` now, and the worker is terminated (replaced on next use). */
  abandon(err: Error): void {
    this.inFlight?.cancel(err);
    this.stop();
  }

  private spawn(heapMb: number): void {
    const entry = workerEntry(import.meta.url, "extraction-worker");
    const worker = new Worker(entry.url, {
      ...(entry.execArgv ? { execArgv: entry.execArgv } : {}),
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
    });
    worker.unref();
    worker.on("message", (reply: WorkerReply) => {
      if (this.inFlight?.id === reply.id) this.inFlight.settle(reply);
    });
    worker.on("error", (err: Error & { code?: string }) => {
      if (this.worker === worker) {
        this.worker = undefined;
        // A replacement starts only once this one is gone (and its memory with it).
        this.stopping = new Promise((resolve) => worker.once("exit", resolve));
      }
      this.inFlight?.lost(err.message, err.code === "ERR_WORKER_OUT_OF_MEMORY");
    });
    worker.on("exit", (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.inFlight?.lost(`the extraction worker stopped with exit code ${code}`, false);
    });
    this.worker = worker;
    this.workerHeapMb = heapMb;
    this.loadedKinds = new Set();
  }

  private stop(): void {
    const worker = this.worker;
    if (worker === undefined) return;
    this.worker = undefined;
    this.stopping = worker.terminate().catch(() => undefined);
  }

  /** Send one request and wait for its reply, enforcing `limits` while it runs. */
  send(body: RequestBody, limits: ExtractionLimits, label: string | undefined, transfer: ArrayBuffer[] = []): Promise<OkReply> {
    const worker = this.worker;
    if (worker === undefined) return Promise.reject(new GroundkitError("EXTRACTION_FAILED", "The extraction worker is not running."));
    const id = this.nextId++;
    return new Promise<OkReply>((resolve, reject) => {
      const memoryLimit = (): GroundkitError =>
        extractionLimit("memory", `stopped: it needed more than ${limits.maxMemoryMb} MiB of memory (the memory limit)`, label, {
          maxMemoryMb: limits.maxMemoryMb,
        });
      const done = (): void => {
        clearTimeout(deadline);
        clearInterval(sampler);
        if (this.inFlight?.id === id) this.inFlight = undefined;
        worker.unref();
      };
      const overrun = (err: GroundkitError): void => {
        done();
        this.stop();
        reject(err);
      };
      const deadline = setTimeout(() => {
        overrun(extractionLimit("time", `stopped after ${limits.timeoutMs} ms (the time limit)`, label, { timeoutMs: limits.timeoutMs }));
      }, limits.timeoutMs);
      // Only a file's extraction is sampled: loading a library (a probe) is bounded by the heap limit alone.
      const baseline = process.memoryUsage.rss();
      const sampler =
        body.op === "extract"
          ? setInterval(() => {
              if (process.memoryUsage.rss() - baseline > limits.maxMemoryMb * MIB) overrun(memoryLimit());
            }, MEMORY_SAMPLE_MS)
          : undefined;
      deadline.unref();
      sampler?.unref();
      this.inFlight = {
        id,
        cancel: (err) => {
          done();
          reject(err);
        },
        settle: (reply) => {
          done();
          if (reply.ok) resolve(reply);
          else reject(errorFrom(reply.error));
        },
        lost: (why, outOfMemory) => {
          done();
          reject(outOfMemory ? memoryLimit() : new GroundkitError("EXTRACTION_FAILED", `Extraction failed: ${why}.`));
        },
      };
      // Only a busy worker keeps the process alive.
      worker.ref();
      worker.postMessage({ ...body, id }, transfer);
    });
  }
}

/** One request for a lane: load a kind (probe) or extract a file, on behalf of `owner`. */
interface Job {
  run: (lane: Lane) => Promise<unknown>;
  owner: JobOwner;
  /** Names the file in refusals. */
  label: string | undefined;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  /** Detach the abort listener once the job has settled. */
  release: () => void;
}

/** How many jobs each state holds, since the pool started (read by tests and the server's metrics). */
export interface ExtractionPoolStats {
  /** Files handed to a worker. */
  started: number;
  /** Jobs dropped from the queue because their caller went away. */
  droppedQueued: number;
  /** Running files abandoned (their worker terminated) because their caller went away. */
  abandonedRunning: number;
  /** Jobs refused with EXTRACTION_BUSY. */
  refusedBusy: number;
}

/** Configuration of an {@link ExtractionPool}. */
export interface ExtractionPoolOptions {
  /** Workers extracting at once (default 2). */
  lanes?: number | undefined;
  /** Jobs one client may have waiting, beyond those running (default 8). */
  maxQueuedPerClient?: number | undefined;
}

/** The defaults of {@link ExtractionPoolOptions}. */
export const DEFAULT_EXTRACTION_LANES = 2;
export const DEFAULT_MAX_QUEUED_PER_CLIENT = 8;

/** Warm extraction workers with per-request limits, a fair queue and cancellation. */
export class ExtractionPool {
  private readonly lanes: Lane[];
  private readonly maxQueuedPerClient: number;
  /** A client may run this many jobs at once: every lane but one, so others always find a lane. */
  private readonly perClient: number;
  private readonly queue: Job[] = [];
  private readonly running = new Map<string, number>();
  private readonly counts: ExtractionPoolStats = { started: 0, droppedQueued: 0, abandonedRunning: 0, refusedBusy: 0 };

  constructor(opts: ExtractionPoolOptions = {}) {
    const lanes = Math.max(1, opts.lanes ?? DEFAULT_EXTRACTION_LANES);
    this.lanes = Array.from({ length: lanes }, () => new Lane());
    this.perClient = Math.max(1, lanes - 1);
    this.maxQueuedPerClient = Math.max(1, opts.maxQueuedPerClient ?? DEFAULT_MAX_QUEUED_PER_CLIENT);
  }

  stats(): ExtractionPoolStats {
    return { ...this.counts };
  }

  /** Load `kind`'s extractor in a worker; resolves to its identity, rejects with why it cannot load. */
  probe(kind: ExtractorKind): Promise<string> {
    // Loading is the process's own work: never refused as a client's, never cancelled.
    return this.submit({ client: `(load ${kind})` }, async (lane) => {
      await lane.ensureWorker(undefined);
      return lane.load(kind, undefined);
    });
  }

  /** Extract `bytes` with `kind`'s extractor, which must still be `identity`; see the module comment for the limits. */
  extract(
    kind: ExtractorKind,
    identity: string,
    bytes: Uint8Array,
    hints: ExtractHints | undefined,
    options: ExtractOptions | undefined,
  ): Promise<ExtractedText> {
    const limits = resolveExtractionLimits(options?.limits);
    const label = options?.label;
    const owner: JobOwner = options?.owner ?? { client: "local" };
    // A copy is taken now: the caller's bytes stay untouched and attached while the job waits.
    const copy = new Uint8Array(bytes);
    return this.submit(owner, async (lane) => {
      await lane.ensureWorker(limits.maxMemoryMb);
      // Loading the library is not the file's work: it happens before the file's deadline starts.
      if (!lane.hasLoaded(kind)) await lane.load(kind, label);
      if (owner.signal?.aborted) throw cancelled(label);
      this.counts.started++;
      const request = { op: "extract", kind, bytes: copy, hints, label, maxOutputCodePoints: limits.maxOutputCodePoints } as const;
      const reply = await lane.send(request, limits, label, [copy.buffer]);
      if (reply.identity !== identity) {
        throw new GroundkitError(
          "EXTRACTION_FAILED",
          `The ${kind} extractor changed from ${identity} to ${reply.identity} while running; restart the process.`,
        );
      }
      return reply.result!;
    }, label) as Promise<ExtractedText>;
  }

  /** Queue `run` for `owner`, refusing it when the owner's queue is full or it is already cancelled. */
  private submit<T>(owner: JobOwner, run: (lane: Lane) => Promise<T>, label?: string): Promise<T> {
    if (owner.signal?.aborted) return Promise.reject(cancelled(label));
    const waiting = this.queue.filter((j) => j.owner.client === owner.client).length;
    if (waiting >= this.maxQueuedPerClient) {
      this.counts.refusedBusy++;
      return Promise.reject(
        new GroundkitError(
          "EXTRACTION_BUSY",
          `${waiting} extractions are already waiting for this client (the limit); ${label ?? "this file"} was not queued.`,
          { max_queued_per_client: this.maxQueuedPerClient },
        ),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => this.cancel(job);
      const job: Job = {
        run,
        owner,
        label,
        resolve: resolve as (value: unknown) => void,
        reject,
        release: () => owner.signal?.removeEventListener("abort", onAbort),
      };
      owner.signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(job);
      this.schedule();
    });
  }

  /** The caller went away: drop the job if it waits, abandon it if it runs. */
  private cancel(job: Job): void {
    const at = this.queue.indexOf(job);
    if (at >= 0) {
      this.queue.splice(at, 1);
      this.counts.droppedQueued++;
      job.release();
      job.reject(cancelled(job.label));
      return;
    }
    const lane = this.lanes.find((l) => l.job === job);
    if (lane === undefined) return;
    this.counts.abandonedRunning++;
    lane.abandon(cancelled(job.label));
  }

  /** Start waiting jobs on free lanes, oldest first among clients under their share. */
  private schedule(): void {
    for (const lane of this.lanes) {
      if (lane.job !== undefined) continue;
      const next = this.queue.findIndex((j) => (this.running.get(j.owner.client) ?? 0) < this.perClient);
      if (next < 0) return;
      const [job] = this.queue.splice(next, 1);
      void this.runOn(lane, job!);
    }
  }

  private async runOn(lane: Lane, job: Job): Promise<void> {
    const client = job.owner.client;
    lane.job = job;
    this.running.set(client, (this.running.get(client) ?? 0) + 1);
    try {
      job.resolve(await job.run(lane));
    } catch (err) {
      // An abandoned job fails as cancelled, whatever its terminated worker said.
      job.reject(job.owner.signal?.aborted ? cancelled(job.label, err) : err);
    } finally {
      job.release();
      lane.job = undefined;
      const left = (this.running.get(client) ?? 1) - 1;
      if (left > 0) this.running.set(client, left);
      else this.running.delete(client);
      this.schedule();
    }
  }
}

let shared: ExtractionPool | undefined;

/** The process's extraction pool, created on first use (no worker starts before the first file). */
export function getExtractionPool(): ExtractionPool {
  shared ??= new ExtractionPool();
  return shared;
}

/**
 * An extractor of `kind` that runs in `pool`'s worker under the limits of each
 * call. Loads the kind in the worker first, so a missing or broken dependency
 * shows here.
 *
 * @example
 *   const pdf = await createIsolatedExtractor("pdf");
 *   await pdf.extract(bytes, undefined, { label: "a.pdf", limits: { timeoutMs: 5000 } });
 */
export async function createIsolatedExtractor(kind: ExtractorKind, pool: ExtractionPool = getExtractionPool()): Promise<Extractor> {
  const identity = await pool.probe(kind);
  return {
    kind,
    identity,
    extract: (bytes, hints, options) => pool.extract(kind, identity, bytes, hints, options),
  };
}
