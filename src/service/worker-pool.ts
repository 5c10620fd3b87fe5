/**
 * `grk serve --workers N`: N processes (node:cluster) answering on one port,
 * each with its own event loop and its own read handles on the collection
 * files (SQLite WAL lets many readers run beside the one writer the writer
 * lock admits). The primary serves nothing itself: it accepts connections and
 * deals them to the workers in turn, starts the workers, restarts one that
 * dies (with a log line), answers their /metrics with the sum over all
 * workers, and on SIGTERM/SIGINT sends each SIGTERM, on which a worker closes
 * gracefully: its in-flight requests finish.
 *
 * The primary keeps its copy of a connection until the worker says it took it
 * (then closes its copy), and closes every connection a dead worker never
 * took at once, so no client waits on a worker that no longer exists (issue 25
 * #12: cluster's own round-robin keeps such a connection open, unanswered).
 */
import cluster, { type Worker } from "node:cluster";
import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { AggregatorRegistry, type Registry } from "prom-client";
import { GroundkitError } from "../core/errors.js";
import type { Logger } from "../obs/logger.js";

/** IPC message types between the primary and its workers. */
const METRICS_REQ = "groundkit:metrics-req";
const METRICS_RES = "groundkit:metrics-res";
/** Worker → primary: serving, hand me connections. */
const READY = "groundkit:ready";
/** Primary → worker: a connection (the socket travels with the message). */
const CONNECTION = "groundkit:connection";
/** Worker → primary: connection `id` taken (the primary closes its copy) or refused (closing: deal it elsewhere). */
const TAKEN = "groundkit:taken";
const REFUSED = "groundkit:refused";
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
  const listener = createServer({ pauseOnConnect: true });
  const port = await listen(listener, opts.host, opts.port);
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  let announced = false;
  let quickCrashes = 0;
  const started = new Map<Worker, number>();
  /** Workers serving, in the order connections are dealt to them. */
  const ready: Worker[] = [];
  let turn = 0;
  /** Connections handed to a worker that has not yet said it took them, by worker. */
  const handed = new Map<Worker, Map<number, Socket>>();
  let nextConnection = 0;
  let fail: (err: GroundkitError) => void = () => undefined;
  const failed = new Promise<GroundkitError>((resolve) => (fail = resolve));

  /** Hand `socket` to the next serving worker (not `except`); with none, close it: the client learns at once. */
  const deal = (socket: Socket, except?: Worker): void => {
    const candidates = ready.filter((w) => w !== except && w.isConnected());
    if (stopping || candidates.length === 0) {
      socket.destroy();
      return;
    }
    const worker = candidates[turn++ % candidates.length]!;
    const id = nextConnection++;
    let waiting = handed.get(worker);
    if (!waiting) handed.set(worker, (waiting = new Map()));
    waiting.set(id, socket);
    worker.send({ type: CONNECTION, id }, socket, { keepOpen: true }, (err) => {
      if (!err) return;
      // Not delivered (the worker is going): another worker gets it.
      if (waiting.delete(id)) deal(socket, worker);
    });
  };
  listener.on("connection", (socket) => deal(socket));

  const fork = (): void => {
    const worker = cluster.fork({ [PORT_ENV]: String(port) });
    started.set(worker, Date.now());
    worker.on("message", (msg: { type?: unknown; id?: unknown }) => {
      if (msg?.type === READY) {
        ready.push(worker);
        if (!announced && ready.length >= opts.workers) {
          announced = true;
          opts.onListening(port);
        }
        return;
      }
      if ((msg?.type === TAKEN || msg?.type === REFUSED) && typeof msg.id === "number") {
        const socket = handed.get(worker)?.get(msg.id);
        if (!socket) return;
        handed.get(worker)!.delete(msg.id);
        // Taken: the worker has its own descriptor; closing ours leaves the connection open for it.
        if (msg.type === TAKEN) socket.destroy();
        else deal(socket, worker);
        return;
      }
      if (msg?.type !== METRICS_REQ) return;
      aggregator.clusterMetrics().then(
        (text) => worker.isConnected() && worker.send({ type: METRICS_RES, id: msg.id, text }),
        (err: Error) => worker.isConnected() && worker.send({ type: METRICS_RES, id: msg.id, error: err.message }),
      );
    });
  };

  cluster.on("exit", (worker, code, signal) => {
    const at = ready.indexOf(worker);
    const wasReady = at >= 0;
    if (wasReady) ready.splice(at, 1);
    // Connections it never took: nobody will answer them; closing ours ends them now.
    for (const socket of handed.get(worker)?.values() ?? []) socket.destroy();
    handed.delete(worker);
    const lived = Date.now() - (started.get(worker) ?? 0);
    started.delete(worker);
    if (stopping) return;
    if (!announced && !wasReady) {
      // The worker already said why (an unreadable index): starting more cannot help.
      stopping = true;
      listener.close();
      fail(new GroundkitError("INTERNAL", `A serve worker exited before serving (${signal ?? `code ${code}`}).`));
      return;
    }
    quickCrashes = lived < CRASH_LOOP_MS ? quickCrashes + 1 : 0;
    if (quickCrashes >= CRASH_LOOP_LIMIT) {
      stopping = true;
      listener.close();
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
      listener.close();
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

/** Listen on `host`:`port` (0: any free port); the port listened on. */
function listen(server: ReturnType<typeof createServer>, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE") {
        reject(new GroundkitError("PORT_IN_USE", `Port ${port} on ${host} is already in use.`, { host, port }, { cause: err }));
      } else reject(err);
    });
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * Worker side: serve the connections the primary hands over on `http` (a
 * server that listens on nothing itself), answer the primary's metrics
 * requests from `registry`, and return how to ask the primary for the pool's
 * sum, plus a promise that resolves if the primary is gone (the worker then
 * closes as on SIGTERM). Tells the primary it is ready for connections.
 */
export function joinPool(
  registry: Registry,
  http: HttpServer,
): { poolMetrics: () => Promise<string>; shutdown: Promise<void>; drained: () => Promise<void> } {
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs prom-client's worker-side listener (it answers the primary's aggregation).
  new AggregatorRegistry();
  let next = 0;
  const waiting = new Map<number, { ok: (text: string) => void; fail: (err: Error) => void }>();
  let shut: () => void = () => undefined;
  const shutdown = new Promise<void>((resolve) => (shut = resolve));
  let closing = false;
  // The connections handed to us and the responses in progress: a closing worker ends them itself,
  // since its server, listening on nothing, does not wait for them.
  const open = new Set<Socket>();
  const responses = new Set<ServerResponse>();
  const idle: (() => void)[] = [];
  http.on("request", (_req: IncomingMessage, res: ServerResponse) => {
    if (closing) res.shouldKeepAlive = false;
    responses.add(res);
    res.once("close", () => responses.delete(res));
  });
  process.on("message", (msg: { type?: unknown; id?: unknown; text?: unknown; error?: unknown }, socket?: Socket) => {
    if (msg?.type === CONNECTION && typeof msg.id === "number" && socket) {
      // Closing: the primary deals it to another worker (our copy closes; its copy keeps the connection).
      if (closing) {
        socket.destroy();
        process.send?.({ type: REFUSED, id: msg.id });
        return;
      }
      open.add(socket);
      socket.once("close", () => {
        open.delete(socket);
        if (open.size === 0) for (const done of idle.splice(0)) done();
      });
      http.emit("connection", socket);
      socket.resume();
      process.send?.({ type: TAKEN, id: msg.id });
      return;
    }
    if (msg?.type !== METRICS_RES || typeof msg.id !== "number") return;
    const w = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (typeof msg.text === "string") w?.ok(msg.text);
    else w?.fail(new Error(typeof msg.error === "string" ? msg.error : "metrics aggregation failed"));
  });
  // The primary gone (killed outright): nobody will restart or stop us; close as on SIGTERM.
  process.once("disconnect", () => shut());
  void shutdown.then(() => (closing = true));
  process.once("SIGTERM", () => (closing = true));
  process.send?.({ type: READY });
  return {
    shutdown,
    drained: () => {
      closing = true;
      // In-flight requests finish and their connections then close; idle ones close now.
      for (const res of responses) if (!res.headersSent) res.shouldKeepAlive = false;
      http.closeIdleConnections();
      return open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve));
    },
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
