/**
 * `grk serve`: REST API, MCP over Streamable HTTP (/mcp) and the web page (/),
 * on 127.0.0.1 by default. A non-loopback bind needs --allow-non-loopback and
 * prints a warning; the mutating tools exist only when GROUNDKIT_API_TOKEN is set.
 */
import { Command, Option } from "commander";
import { GroundkitError } from "../core/errors.js";
import { createLogger } from "../obs/logger.js";
import { isLoopbackHost } from "../service/http-guards.js";
import { startRestServer } from "../service/rest-server.js";
import { createServiceContext } from "../service/service-context.js";
import { action, collect, intFlag, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { collectionSettings } from "../collection/settings.js";
import { DEFAULTS } from "../core/config.js";
import { watchAndIngest } from "../watch/watch-ingest.js";
import { watchedFolders, withDebounceOption } from "./watch-folders.js";
import { availableParallelism } from "node:os";
import { isPoolWorker, joinPool, poolPort, poolWorkerId, runPool } from "../service/worker-pool.js";
import type { ServiceContext } from "../service/service-context.js";
import type { Logger } from "../obs/logger.js";

interface ServeFlags extends CommonFlags {
  port: number;
  host: string;
  allowNonLoopback?: boolean;
  allowedRoot?: string[];
  allowedHost?: string[];
  baseDir?: string;
  allowPrivateNetwork?: boolean;
  maxConcurrency: number;
  requestTimeout: number;
  maxBodyBytes: number;
  maxConnectionsPerClient: number;
  minBodyRate: number;
  logFormat?: "text" | "json";
  watch?: string[];
  debounce?: number;
  workers: number;
}

/** Most workers --workers takes (a process each, with its own handles and caches). */
const MAX_WORKERS = 64;

/** `--workers`: a count, or `auto` for one per core. */
function workersFlag(value: string): number {
  if (value === "auto") return Math.min(MAX_WORKERS, availableParallelism());
  return intFlag("--workers", 1, MAX_WORKERS)(value);
}


/**
 * Refuse a non-loopback bind unless explicitly allowed; return the warning to
 * print when it is.
 */
export function checkBind(host: string, allowNonLoopback: boolean): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  if (!allowNonLoopback) {
    throw new GroundkitError(
      "USAGE",
      `Refusing to listen on ${host}, which is not a loopback address: pass --allow-non-loopback to serve other machines.`,
    );
  }
  return (
    `warning: listening on ${host}: other machines can reach this server. Requests must name an allowed Host ` +
    `(--allowed-host); set GROUNDKIT_API_TOKEN only over a trusted network or behind TLS.`
  );
}

export function serveCommand(): Command {
  const cmd = new Command("serve")
    .description("serve the REST API, MCP over HTTP (/mcp) and the web page (/)")
    .option("--port <n>", "port (0 picks a free one)", intFlag("--port", 0, 65535), 8765)
    .option("--host <addr>", "bind address", "127.0.0.1")
    .option("--allow-non-loopback", "allow binding an address other machines can reach (prints a warning)")
    .option("--allowed-host <name>", "extra Host header value to accept, e.g. a proxy's name (repeatable)", collect)
    .option("--allowed-root <dir>", "directory the ingest tool may read (repeatable; default: --base-dir)", collect)
    .option("--base-dir <dir>", "containment root for verification (default: recorded at ingest)")
    .option("--allow-private-network", "let the ingest tool fetch URLs on loopback/private hosts")
    .option("--max-concurrency <n>", "requests in flight before answering 503", intFlag("--max-concurrency", 1, 100_000), 256)
    .option("--request-timeout <seconds>", "deadline per request (ingest: 20x)", intFlag("--request-timeout", 1, 3600), 30)
    .option("--max-body-bytes <n>", "request body cap", intFlag("--max-body-bytes", 1024, 64 * 1024 * 1024), 256 * 1024)
    .option(
      "--max-connections-per-client <n>",
      "connections one client address may hold open (more are closed at once)",
      intFlag("--max-connections-per-client", 1, 100_000),
      128,
    )
    .option(
      "--min-body-rate <bytes>",
      "slowest a request body may arrive after its first 2 s, in bytes per second (408 below)",
      intFlag("--min-body-rate", 1, 1024 * 1024 * 1024),
      1024,
    )
    .addOption(new Option("--log-format <format>", "log line format on stderr").choices(["text", "json"]).default("text"))
    .option("--watch <folders...>", "keep these folders indexed in the default collection as files change (one log line per change)")
    .option(
      "--workers <n>",
      "processes serving the port (each with its own event loop and read handles; `auto`: one per core); --watch runs in the first process only",
      workersFlag,
      1,
    );
  withDebounceOption(cmd);
  withCommonOptions(cmd, { json: false }).action(
    action(async (flags: ServeFlags) => {
      const worker = isPoolWorker();
      const warning = checkBind(flags.host, flags.allowNonLoopback ?? false);
      const log = createLogger({
        format: flags.logFormat ?? "text",
        // One write per event-loop turn for the access log, not one per request.
        batch: true,
        // Which process answered: a pool's access lines say so.
        ...(worker ? { fields: { worker: poolWorkerId(), pid: process.pid } } : {}),
      });
      if (warning && !worker) process.stderr.write(warning + "\n");
      const loc = resolveLocation(flags);
      const folders = flags.watch ? watchedFolders(flags.watch) : [];
      const token = process.env.GROUNDKIT_API_TOKEN || undefined;
      const context = createServiceContext({
        indexDir: loc.indexDir,
        collection: loc.collection,
        settings: collectionSettings(loc.config),
        baseDir: flags.baseDir,
        allowedRoots: flags.allowedRoot,
        allowPrivateNetwork: flags.allowPrivateNetwork,
        mutating: token !== undefined,
        // Half the request deadline: a call waiting for another writer gets COLLECTION_BUSY, not a timeout.
        lockTimeoutMs: flags.requestTimeout * 500,
      });
      const describe = {
        index_dir: context.collections.indexDir,
        tools: token !== undefined ? "read and mutating (bearer token required)" : "read-only",
        allowed_roots: context.allowedRoots,
      };
      const watchFolders = () =>
        folders.length > 0
          ? watchAndIngest({
              folders,
              log,
              quietMs: flags.debounce ?? 300,
              ingest: (watched, onChange) =>
                context.collections.use(
                  context.defaultCollection,
                  // A dense collection stays dense: the collection decides (collection/dense-ingest.ts).
                  (col) =>
                    col.ingest(watched, {
                      include: loc.config.include,
                      exclude: loc.config.exclude,
                      maxFileSize: loc.config.max_file_size ?? DEFAULTS.maxFileSize,
                      lockTimeoutMs: context.lockTimeoutMs,
                      onChange,
                    }),
                  { create: true },
                ),
            })
          : Promise.resolve(undefined);

      if (flags.workers > 1 && !worker) return runPrimary(flags, log, context, describe, watchFolders);

      const pool = worker ? joinPool : undefined;
      let joined: ReturnType<typeof joinPool> | undefined;
      const server = await startRestServer({
        context,
        token,
        host: flags.host,
        port: flags.port,
        handedConnections: worker ? { port: poolPort()! } : undefined,
        allowedHosts: flags.allowedHost,
        maxConcurrency: flags.maxConcurrency,
        requestTimeoutMs: flags.requestTimeout * 1000,
        longRequestTimeoutMs: flags.requestTimeout * 20_000,
        bodyLimit: flags.maxBodyBytes,
        maxConnectionsPerClient: flags.maxConnectionsPerClient,
        minBodyBytesPerSecond: flags.minBodyRate,
        log,
        ...(pool
          ? {
              renderMetrics: async (own) => {
                joined ??= pool(own.registry, server.app.server);
                return { contentType: own.registry.contentType, body: await joined.poolMetrics() };
              },
            }
          : {}),
      });
      if (pool) joined ??= pool(server.metrics.registry, server.app.server);
      if (token !== undefined && token.length < 16 && !worker) log.warn("GROUNDKIT_API_TOKEN is shorter than 16 characters");
      // In a pool the primary announces the address once every worker listens.
      if (worker) log.info("worker ready", { url: server.url });
      else log.info(`listening on ${server.url}`, describe);
      // The watch writes; in a pool only the primary runs it.
      const watch = worker ? undefined : await watchFolders();
      await stopSignal(worker ? joined!.shutdown : undefined);
      log.info("shutting down");
      // The watch first: a running batch finishes (its documents commit whole) before the collections close.
      await watch?.close();
      // Fastify waits for in-flight requests; new ones on kept-alive connections get 503.
      await server.close();
      // A pool worker's server listens on nothing, so its close does not wait for the connections it was handed.
      await joined?.drained();
      if (worker) process.disconnect?.();
    }),
  );
  return cmd;
}

/**
 * Resolves on SIGTERM or SIGINT (or when `also` does). The handlers stay
 * installed: a second signal during the graceful close must not kill the
 * process with requests in flight.
 */
function stopSignal(also?: Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    // A pool worker leaves Ctrl-C (sent to the whole process group) to its primary, which stops the workers in turn.
    process.on("SIGINT", () => (also ? undefined : resolve()));
    process.on("SIGTERM", () => resolve());
    void also?.then(resolve);
  });
}

/** The primary of `--workers N`: starts and supervises the workers, runs --watch, stops them all on a signal. */
async function runPrimary(
  flags: ServeFlags,
  log: Logger,
  context: ServiceContext,
  describe: Record<string, unknown>,
  watchFolders: () => Promise<{ close(): Promise<void> } | undefined>,
): Promise<void> {
  const urlHost = flags.host === "0.0.0.0" || flags.host === "::" ? "127.0.0.1" : flags.host.includes(":") ? `[${flags.host}]` : flags.host;
  const pool = await runPool({
    workers: flags.workers,
    host: flags.host,
    port: flags.port,
    log,
    onListening: (port) => log.info(`listening on http://${urlHost}:${port}`, { ...describe, workers: flags.workers }),
  });
  const watch = await watchFolders();
  const failure = await Promise.race([stopSignal().then(() => undefined), pool.failed]);
  if (!failure) log.info("shutting down");
  await watch?.close();
  await pool.stop();
  await context.collections.closeAll();
  if (failure) throw failure;
}
