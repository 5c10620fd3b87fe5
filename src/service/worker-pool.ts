/**
 * `grk serve --workers N`: N processes (node:cluster) answering on one port,
 * each with its own event loop and its own read handles on the collection
 * files (SQLite WAL lets many readers run beside the one writer the writer
 * lock admits). The primary serves nothing itself: it starts the workers,
 * restarts one that dies (with a log line), answers their /metrics with the
 * sum over all workers, and on SIGTERM/SIGINT sends each SIGTERM, on which a
 * worker closes gracefully: its in-flight requests finish.
 */
import cluster, { type Worker } from "node:cluster";
import { createServer, type AddressInfo } from "node:net";
import { AggregatorRegistry, type Registry } from "prom-client";
import { GroundkitError } from "../core/errors.js";
import type { Logger } from "../obs/logger.js";

/** IPC message types between the primary and its workers. */
const METRICS_REQ = "groundkit:metrics-req";
const METRICS_RES = "groundkit:metrics-res";
/** The port every worker listens on (chosen by the primary when --port 0 asked for any free one). */
const PORT_ENV = "GROUNDKIT_POOL_PORT";

/** A worker that dies this soon after starting, this many times in a row, stops the pool (a crash loop). */
const CRASH_LOOP_MS = 5_000;
const CRASH_LOOP_LIMIT = 5;

/** Whether this process is a worker of a pool (it serves; the primary does not). */
export function isPoolWorker(): boolean {
  return cluster.isWorker;
}

/** This worker's id in its pool (1, 2, …; a restarted worker gets a new one). */
export function poolWorkerId(): number | undefined {
  return cluster.worker?.id;
}

/** In a worker: the port its pool listens on. */
export function poolPort(): number | undefined {
  const v = cluster.isWorker ? process.env[PORT_ENV] : undefined;
  return v ? Number(v) : undefined;
}

/** Configuration of {@link runPool}. */
export interface PoolOptions {
  workers: number;
  host: string;
  /** 0: pick a free port first, so a replacement worker joins the same one. */
  port: number;
  log: Logger;
  /** Told once every worker listens, with the port they share. */
  onListening: (port: number) => void;
}

/** A running pool (primary side). */
export interface Pool {
  /** Resolves once all workers have exited after {@link Pool.stop}. */
  stop(): Promise<void>;
  /** Resolves (with an error) if the pool cannot run: a worker failed before listening, or keeps crashing. */
  failed: Promise<GroundkitError>;
}

/**
 * Start the workers (they re-run this command line; {@link isPoolWorker} is
 * true in them). Call in the primary only.
 */
export async function runPool(opts: PoolOptions): Promise<Pool> {
  // Workers share a listening socket per (address, port) while one of them holds it: a fixed port keeps the
  // socket of a replacement the same even if every worker died at once.
  const port = opts.port === 0 ? await freePort(opts.host) : opts.port;
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  let listening = 0;
  let announced = false;
  let quickCrashes = 0;
  const started = new Map<Worker, number>();
  const ready = new Set<Worker>();
  let fail: (err: GroundkitError) => void = () => undefined;
  const failed = new Promise<GroundkitError>((resolve) => (fail = resolve));

  const fork = (): void => {
    const worker = cluster.fork({ [PORT_ENV]: String(port) });
    started.set(worker, Date.now());
    worker.on("message", (msg: { type?: unknown; id?: unknown }) => {
      if (msg?.type !== METRICS_REQ) return;
      aggregator.clusterMetrics().then(
        (text) => worker.isConnected() && worker.send({ type: METRICS_RES, id: msg.id, text }),
        (err: Error) => worker.isConnected() && worker.send({ type: METRICS_RES, id: msg.id, error: err.message }),
      );
    });
  };

  cluster.on("listening", (worker, address) => {
    ready.add(worker);
    listening++;
    if (!announced && listening >= opts.workers) {
      announced = true;
      opts.onListening(address.port);
    }
  });
  cluster.on("exit", (worker, code, signal) => {
    const wasReady = ready.delete(worker);
    const lived = Date.now() - (started.get(worker) ?? 0);
    started.delete(worker);
    if (stopping) return;
    if (!announced && !wasReady) {
      // The worker already said why (a port in use, an unreadable index): starting more cannot help.
      stopping = true;
      fail(new GroundkitError("INTERNAL", `A serve worker exited before listening (${signal ?? `code ${code}`}).`));
      return;
    }
    quickCrashes = lived < CRASH_LOOP_MS ? quickCrashes + 1 : 0;
    if (quickCrashes >= CRASH_LOOP_LIMIT) {
      stopping = true;
      fail(new GroundkitError("INTERNAL", `Serve workers keep exiting within ${CRASH_LOOP_MS} ms of starting; stopping.`));
      return;
    }
    opts.log.warn("worker exited; starting a replacement", { worker: worker.id, pid: worker.process.pid, code, signal });
    fork();
  });

  for (let i = 0; i < opts.workers; i++) fork();

  return {
    failed,
    stop: async () => {
      stopping = true;
      const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
      await Promise.all(
        alive.map(
          (w) =>
            new Promise<void>((resolve) => {
              w.once("exit", () => resolve());
              // A serving worker closes gracefully on SIGTERM; one still starting has nothing in flight.
              w.process.kill("SIGTERM");
            }),
        ),
      );
    },
  };
}

/** A port free on `host` now (the kernel's pick for port 0). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Worker side: answer the primary's metrics requests from `registry`, and
 * return how to ask the primary for the pool's sum, plus a promise that
 * resolves if the primary is gone (the worker then closes as on SIGTERM).
 */
export function joinPool(registry: Registry): { poolMetrics: () => Promise<string>; shutdown: Promise<void> } {
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs prom-client's worker-side listener (it answers the primary's aggregation).
  new AggregatorRegistry();
  let next = 0;
  const waiting = new Map<number, { ok: (text: string) => void; fail: (err: Error) => void }>();
  let shut: () => void = () => undefined;
  const shutdown = new Promise<void>((resolve) => (shut = resolve));
  process.on("message", (msg: { type?: unknown; id?: unknown; text?: unknown; error?: unknown }) => {
    if (msg?.type !== METRICS_RES || typeof msg.id !== "number") return;
    const w = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (typeof msg.text === "string") w?.ok(msg.text);
    else w?.fail(new Error(typeof msg.error === "string" ? msg.error : "metrics aggregation failed"));
  });
  // The primary gone (killed outright): nobody will restart or stop us; close as on SIGTERM.
  process.once("disconnect", () => shut());
  return {
    shutdown,
    poolMetrics: () =>
      new Promise<string>((ok, fail) => {
        const id = next++;
        waiting.set(id, { ok, fail });
        try {
          process.send!({ type: METRICS_REQ, id });
        } catch (err) {
          waiting.delete(id);
          fail(err as Error);
        }
      }),
  };
}
