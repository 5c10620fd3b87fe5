/**
 * Extraction in a bounded worker thread, so hostile bytes can neither freeze
 * the event loop (a server keeps answering) nor take the process's time and
 * memory (docs/decisions/0007-extraction-limits.md).
 *
 * One warm worker runs one file at a time (ingest extracts one file at a time
 * anyway; requests queue). Per file:
 * - time: a deadline from the moment the file is handed over; on overrun the
 *   worker is terminated, which stops even a synchronous loop;
 * - memory: the worker's heap is capped by `resourceLimits`, and because
 *   decoded PDF streams are ArrayBuffers outside that heap, the process's
 *   resident memory is sampled while the file runs: growing past the cap
 *   terminates the worker too;
 * - output: the extractors refuse text over the cap as they produce it.
 * A terminated worker is replaced on the next request; the request's extractor
 * is loaded into it before the request's deadline starts.
 */
import { Worker } from "node:worker_threads";
import { ERROR_CATALOGUE, GroundkitError, type ErrorCode } from "../core/errors.js";
import type { ExtractRequest, ProbeRequest, WorkerError, WorkerReply } from "./extraction-protocol.js";
import type { ExtractHints, ExtractOptions, ExtractedText, Extractor, ExtractorKind } from "./extractor.js";
import { DEFAULT_EXTRACTION_LIMITS, extractionLimit, resolveExtractionLimits, type ExtractionLimits } from "./limits.js";

/** How often resident memory is sampled while a file is extracted. */
const MEMORY_SAMPLE_MS = 20;

const MIB = 1024 * 1024;

type OkReply = Extract<WorkerReply, { ok: true }>;
type RequestBody = Omit<ProbeRequest, "id"> | Omit<ExtractRequest, "id">;

interface InFlight {
  id: number;
  settle: (reply: WorkerReply) => void;
  /** The worker died under this request: `outOfMemory` when its heap limit killed it. */
  lost: (why: string, outOfMemory: boolean) => void;
}

/** Where the worker's code is: compiled JS next to this file, or the TypeScript source under the test runner. */
function workerEntry(): { url: URL; execArgv?: string[] } {
  if (!import.meta.url.endsWith(".ts")) return { url: new URL("./extraction-worker.js", import.meta.url) };
  // Running from source (vitest): Node 20 cannot load .ts, so the worker first registers
  // the repository's development-only transpiling hooks. Never the case for dist/.
  const hooks = new URL("../../scripts/ts-source-register.mjs", import.meta.url).href;
  return { url: new URL("./extraction-worker.ts", import.meta.url), execArgv: [...process.execArgv, "--import", hooks] };
}

function errorFrom(error: WorkerError): Error {
  if (error.code !== undefined && Object.hasOwn(ERROR_CATALOGUE, error.code)) {
    return new GroundkitError(error.code as ErrorCode, error.message, error.detail);
  }
  // Not a deliberate refusal: a bug in an extractor, reported as such by the caller's boundary.
  return new Error(error.message);
}

/** A single warm extraction worker with per-request limits. */
export class ExtractionPool {
  private worker: Worker | undefined;
  private workerHeapMb = 0;
  private stopping: Promise<unknown> = Promise.resolve();
  private inFlight: InFlight | undefined;
  /** Kinds whose extractor the current worker has loaded. */
  private loadedKinds = new Set<ExtractorKind>();
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;

  /** Load `kind`'s extractor in the worker; resolves to its identity, rejects with why it cannot load. */
  probe(kind: ExtractorKind): Promise<string> {
    return this.serialized(async () => {
      await this.ensureWorker(undefined);
      return this.load(kind, undefined);
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
    return this.serialized(async () => {
      const limits = resolveExtractionLimits(options?.limits);
      const label = options?.label;
      await this.ensureWorker(limits.maxMemoryMb);
      // Loading the library is not the file's work: it happens before the file's deadline starts.
      if (!this.loadedKinds.has(kind)) await this.load(kind, label);
      // A copy is transferred: the caller's bytes stay untouched and attached.
      const copy = new Uint8Array(bytes);
      const request = { op: "extract", kind, bytes: copy, hints, label, maxOutputCodePoints: limits.maxOutputCodePoints } as const;
      const reply = await this.send(request, limits, label, [copy.buffer]);
      if (reply.identity !== identity) {
        throw new GroundkitError(
          "EXTRACTION_FAILED",
          `The ${kind} extractor changed from ${identity} to ${reply.identity} while running; restart the process.`,
        );
      }
      return reply.result!;
    });
  }

  /** Run `task` after every earlier one has settled. */
  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * A running worker whose heap is at least `heapMb` (any heap when undefined).
   * A larger heap is kept: each call's memory cap is enforced by the RSS sampler
   * anyway, and replacing the worker would load the extractors again.
   */
  private async ensureWorker(heapMb: number | undefined): Promise<void> {
    if (this.worker !== undefined && (heapMb === undefined || this.workerHeapMb >= heapMb)) return;
    this.stop();
    await this.stopping;
    this.spawn(heapMb ?? DEFAULT_EXTRACTION_LIMITS.maxMemoryMb);
  }

  /** Load `kind`'s extractor in the current worker (bounded by the default deadline and the heap); its identity. */
  private async load(kind: ExtractorKind, label: string | undefined): Promise<string> {
    const reply = await this.send({ op: "probe", kind }, { ...DEFAULT_EXTRACTION_LIMITS, maxMemoryMb: this.workerHeapMb }, label);
    this.loadedKinds.add(kind);
    return reply.identity;
  }

  private spawn(heapMb: number): void {
    const entry = workerEntry();
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
  private send(body: RequestBody, limits: ExtractionLimits, label: string | undefined, transfer: ArrayBuffer[] = []): Promise<OkReply> {
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

let shared: ExtractionPool | undefined;

/** The process's extraction pool, created on first use (no worker starts before the first file). */
function getExtractionPool(): ExtractionPool {
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
