/**
 * The metrics `grk serve` exposes at GET /metrics, in Prometheus text format.
 * Each server has its own registry (never prom-client's global one), so a
 * process may run several servers (tests do) without their counts mixing.
 * Labels are bounded sets: tool names, transports, error codes, verdicts,
 * source classes, route patterns; never a query, a path or an id.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";

/** How a tool call reached the server. */
export type Transport = "rest" | "mcp-http" | "mcp-stdio";

/** What the gauges read when scraped. */
export interface ServerGauges {
  openCollections: () => number;
  inFlight: () => number;
  /** Requests whose body is still arriving (they hold no slot of --max-concurrency yet). */
  receivingBody?: () => number;
  maxConcurrency: number;
}

/** Counts of one ingest run, as its summary reports them. */
export interface IngestCounts {
  indexed: number;
  unchanged: number;
  removed: number;
  moved: number;
  failed: Array<{ code: string }>;
  chunks_written: number;
  vectors_written: number;
}

/** Latency buckets in seconds: a BM25 search is a few ms, a dense ingest can take minutes. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * One server's metrics.
 *
 * @example
 *   const metrics = new ServerMetrics({ openCollections: () => 1, inFlight: () => 0, maxConcurrency: 256 });
 *   metrics.toolCall("search", "rest", "ok", 0.004);
 *   const text = await metrics.render();
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly toolCalls: Counter<"tool" | "transport" | "outcome">;
  private readonly toolSeconds: Histogram<"tool" | "transport">;
  private readonly errors: Counter<"code" | "transport">;
  private readonly verdicts: Counter<"verdict" | "source_class">;
  private readonly ingestDocuments: Counter<"outcome">;
  private readonly ingestChunks: Counter;
  private readonly ingestVectors: Counter;
  private readonly ingestFailures: Counter<"code">;
  private readonly httpRequests: Counter<"method" | "route" | "status">;
  private readonly httpSeconds: Histogram<"method" | "route">;
  private readonly shedTotal: Counter;

  constructor(gauges: ServerGauges) {
    const registers = [this.registry];
    this.toolCalls = new Counter({
      name: "groundkit_tool_calls_total",
      help: "Tool calls by tool, transport and outcome (ok or error).",
      labelNames: ["tool", "transport", "outcome"],
      registers,
    });
    this.toolSeconds = new Histogram({
      name: "groundkit_tool_call_duration_seconds",
      help: "Tool call latency by tool and transport.",
      labelNames: ["tool", "transport"],
      buckets: BUCKETS,
      registers,
    });
    this.errors = new Counter({
      name: "groundkit_errors_total",
      help: "Error responses by groundkit error code and transport.",
      labelNames: ["code", "transport"],
      registers,
    });
    this.verdicts = new Counter({
      name: "groundkit_verifications_total",
      help: "Citation verdicts returned (search with verify, fetch_chunk, verify_citation) by verdict and source class.",
      labelNames: ["verdict", "source_class"],
      registers,
    });
    this.ingestDocuments = new Counter({
      name: "groundkit_ingest_documents_total",
      help: "Documents seen by ingest calls, by outcome (indexed, unchanged, removed, failed).",
      labelNames: ["outcome"],
      registers,
    });
    this.ingestChunks = new Counter({ name: "groundkit_ingest_chunks_total", help: "Chunks written by ingest calls.", registers });
    this.ingestVectors = new Counter({ name: "groundkit_ingest_vectors_total", help: "Vectors written by ingest calls.", registers });
    this.ingestFailures = new Counter({
      name: "groundkit_ingest_failures_total",
      help: "Sources an ingest call refused or could not index, by error code.",
      labelNames: ["code"],
      registers,
    });
    this.httpRequests = new Counter({
      name: "groundkit_http_requests_total",
      help: "HTTP requests by method, route pattern and status.",
      labelNames: ["method", "route", "status"],
      registers,
    });
    this.httpSeconds = new Histogram({
      name: "groundkit_http_request_duration_seconds",
      help: "HTTP request latency by method and route pattern.",
      labelNames: ["method", "route"],
      buckets: BUCKETS,
      registers,
    });
    this.shedTotal = new Counter({
      name: "groundkit_http_shed_total",
      help: "Requests answered 503 OVERLOADED because --max-concurrency requests were in flight.",
      registers,
    });
    new Gauge({
      name: "groundkit_open_collections",
      help: "Collection handles the server holds open.",
      registers,
      collect() {
        this.set(gauges.openCollections());
      },
    });
    new Gauge({
      name: "groundkit_http_requests_in_flight",
      help: "Requests being served now (the queue --max-concurrency bounds).",
      registers,
      collect() {
        this.set(gauges.inFlight());
      },
    });
    new Gauge({
      name: "groundkit_http_requests_receiving_body",
      help: "Requests whose body is still arriving; they take a slot of --max-concurrency once it has.",
      registers,
      collect() {
        this.set(gauges.receivingBody?.() ?? 0);
      },
    });
    new Gauge({
      name: "groundkit_http_max_concurrency",
      help: "Requests in flight beyond which the server sheds load with 503.",
      registers,
    }).set(gauges.maxConcurrency);
  }

  toolCall(tool: string, transport: Transport, outcome: "ok" | "error", seconds: number): void {
    this.toolCalls.inc({ tool, transport, outcome });
    this.toolSeconds.observe({ tool, transport }, seconds);
  }

  error(code: string, transport: Transport): void {
    this.errors.inc({ code, transport });
  }

  verdict(verdict: string, sourceClass: string): void {
    this.verdicts.inc({ verdict, source_class: sourceClass });
  }

  ingest(counts: IngestCounts): void {
    this.ingestDocuments.inc({ outcome: "indexed" }, counts.indexed);
    this.ingestDocuments.inc({ outcome: "unchanged" }, counts.unchanged);
    this.ingestDocuments.inc({ outcome: "removed" }, counts.removed);
    this.ingestDocuments.inc({ outcome: "moved" }, counts.moved);
    this.ingestDocuments.inc({ outcome: "failed" }, counts.failed.length);
    this.ingestChunks.inc(counts.chunks_written);
    this.ingestVectors.inc(counts.vectors_written);
    for (const f of counts.failed) this.ingestFailures.inc({ code: f.code });
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status: String(status) });
    this.httpSeconds.observe({ method, route }, seconds);
  }

  shed(): void {
    this.shedTotal.inc();
  }

  /** The exposition text (and its content type) for a scrape. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
