/**
 * Turning tracing on: when the standard OpenTelemetry environment asks for an
 * OTLP exporter, register a tracer provider that batches spans and sends them
 * as OTLP/HTTP (JSON encoding) to `OTEL_EXPORTER_OTLP_ENDPOINT`. Otherwise
 * nothing is registered and the API stays a no-op. The SDK (and, here, the API) is loaded
 * only when tracing is on, so a plain `grk --version` never pays for importing it.
 *
 * Read here: OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL,
 * OTEL_TRACES_SAMPLER(_ARG), OTEL_BSP_*. The exporter reads the endpoint, headers,
 * timeout and compression variables itself; the resource reads OTEL_SERVICE_NAME and
 * OTEL_RESOURCE_ATTRIBUTES.
 */
import { GroundkitError } from "../core/errors.js";

/**
 * A started (or not) tracing pipeline; `shutdown` flushes what is queued and
 * says whether it finished (false: the exporter is still retrying a collector
 * that does not answer, and its timers would hold the process open).
 */
export interface TracingHandle {
  enabled: boolean;
  shutdown(): Promise<boolean>;
}

type Env = Record<string, string | undefined>;

const OFF: TracingHandle = { enabled: false, shutdown: async () => true };

/** How long a command's exit waits for its last spans to be sent. */
const FLUSH_BUDGET_MS = 3000;

/**
 * Whether the environment turns tracing on: `OTEL_TRACES_EXPORTER=otlp`, or an
 * OTLP endpoint set without `OTEL_TRACES_EXPORTER=none`; `OTEL_SDK_DISABLED=true` wins.
 *
 * @throws GroundkitError INVALID_CONFIG for an exporter or protocol groundkit cannot send.
 */
export function tracingRequested(env: Env = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "");
  const unknown = exporters.filter((e) => e !== "otlp" && e !== "none");
  if (unknown.length > 0) {
    throw new GroundkitError(
      "INVALID_CONFIG",
      `OTEL_TRACES_EXPORTER=${unknown.join(",")} is not supported; groundkit exports traces with otlp (or none).`,
    );
  }
  const on =
    exporters.includes("otlp") ||
    (exporters.length === 0 && Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT));
  if (!on) return false;
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || "http/json").trim().toLowerCase();
  if (protocol !== "http/json") {
    throw new GroundkitError(
      "INVALID_CONFIG",
      `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported; groundkit sends OTLP over HTTP with JSON encoding: ` +
        `set it to http/json (an OpenTelemetry Collector accepts it on the same port, 4318).`,
    );
  }
  return true;
}

/**
 * Start tracing if the environment asks for it. Export failures (a collector
 * that is down) are reported through `warn`, never thrown at the work traced.
 *
 * @example
 *   const tracing = await startTracingFromEnv({ serviceVersion: "0.1.0", warn: (m) => log.warn(m) });
 *   try { await run(); } finally { await tracing.shutdown(); }
 */
export async function startTracingFromEnv(opts: { serviceVersion: string; warn: (msg: string) => void; env?: Env }): Promise<TracingHandle> {
  const env = opts.env ?? process.env;
  if (!tracingRequested(env)) return OFF;
  const sampler = await samplerFromEnv(env);
  const bsp = batchOptionsFromEnv(env);
  const [{ context, diag, DiagLogLevel, propagation, trace }, { TracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, resources, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }] =
    await Promise.all([
      import("@opentelemetry/api"),
      import("@opentelemetry/sdk-trace"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
      import("@opentelemetry/context-async-hooks"),
      import("@opentelemetry/core"),
    ]);
  diag.setLogger(
    {
      error: (m) => opts.warn(`tracing: ${m}`),
      warn: (m) => opts.warn(`tracing: ${m}`),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  );
  const resource = resources
    .resourceFromAttributes({ "service.name": "groundkit", "service.version": opts.serviceVersion })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new TracerProvider({
    resource,
    sampler,
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), ...bsp })],
  });
  // Spans nest across awaits only with a context manager that follows async work.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  // A caller's `traceparent` header continues its trace into the server's spans.
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    enabled: true,
    shutdown: async () => {
      // A collector that is down makes the exporter retry with backoff for up to its timeout (10 s):
      // a command's exit waits a bounded time for the last spans, not that long.
      let timer: NodeJS.Timeout | undefined;
      const budget = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), FLUSH_BUDGET_MS);
        timer.unref();
      });
      let finished = true;
      try {
        const outcome = await Promise.race([provider.shutdown(), budget]);
        if (outcome === "late") {
          finished = false;
          opts.warn(`tracing: spans not flushed within ${FLUSH_BUDGET_MS} ms were dropped (is the collector at OTEL_EXPORTER_OTLP_ENDPOINT up?)`);
        }
      } catch (err) {
        opts.warn(`tracing: spans could not be flushed: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        clearTimeout(timer);
      }
      trace.disable();
      propagation.disable();
      context.disable();
      diag.disable();
      return finished;
    },
  };
}

/** OTEL_TRACES_SAMPLER / _ARG (default parentbased_always_on). */
async function samplerFromEnv(env: Env) {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = await import("@opentelemetry/sdk-trace");
  const name = (env.OTEL_TRACES_SAMPLER ?? "parentbased_always_on").trim().toLowerCase();
  const ratio = (): number => {
    const raw = env.OTEL_TRACES_SAMPLER_ARG;
    if (raw === undefined || raw.trim() === "") return 1;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0 || n > 1) {
      throw new GroundkitError("INVALID_CONFIG", `OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1; got '${raw}'.`);
    }
    return n;
  };
  switch (name) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return new TraceIdRatioBasedSampler(ratio());
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) });
    default:
      throw new GroundkitError(
        "INVALID_CONFIG",
        `OTEL_TRACES_SAMPLER=${name} is not supported; use always_on, always_off, traceidratio or their parentbased_ forms.`,
      );
  }
}

/** OTEL_BSP_* (the SDK's defaults when unset). */
function batchOptionsFromEnv(env: Env) {
  const read = (key: string): number | undefined => {
    const raw = env[key];
    if (raw === undefined || raw.trim() === "") return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new GroundkitError("INVALID_CONFIG", `${key} must be a whole number; got '${raw}'.`);
    return n;
  };
  const out: { scheduledDelayMillis?: number; exportTimeoutMillis?: number; maxQueueSize?: number; maxExportBatchSize?: number } = {};
  const delay = read("OTEL_BSP_SCHEDULE_DELAY");
  const timeout = read("OTEL_BSP_EXPORT_TIMEOUT");
  const queue = read("OTEL_BSP_MAX_QUEUE_SIZE");
  const batch = read("OTEL_BSP_MAX_EXPORT_BATCH_SIZE");
  if (delay !== undefined) out.scheduledDelayMillis = delay;
  if (timeout !== undefined) out.exportTimeoutMillis = timeout;
  if (queue !== undefined) out.maxQueueSize = queue;
  if (batch !== undefined) out.maxExportBatchSize = batch;
  return out;
}
