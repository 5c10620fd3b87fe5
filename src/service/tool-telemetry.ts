/**
 * One tool call, observed the same way on every transport: a span named after
 * the tool carrying the request id (the id the access log and the error
 * envelope carry), and, on `grk serve`, the call, its latency, the verdicts it
 * returned and the ingest counts it reports in the server's metrics.
 */
import type { IngestCounts, ServerMetrics, Transport } from "../obs/server-metrics.js";
import { ATTR, contextFromHeaders, withSpan } from "../obs/tracing.js";
import { withRequestScope } from "../core/request-scope.js";
import type { ServiceContext } from "./service-context.js";
import { runTool, type ToolDefinition } from "./tool-registry.js";
import type { ToolEmitter } from "./tool-definition.js";

/** Where a call came from and what observes it. */
export interface ToolCallScope {
  transport: Transport;
  requestId: string;
  /** The server's metrics (`grk serve`); serve-mcp has none. */
  metrics?: ServerMetrics | undefined;
  /** The HTTP request's headers: a W3C `traceparent` among them makes the call's span a child of the caller's. */
  headers?: Record<string, string | string[] | undefined> | undefined;
  /** Told the trace id once the call's span exists (a recording one only), for the access log. */
  onTrace?: ((traceId: string) => void) | undefined;
  /** A streaming tool's events go here as they happen (REST `text/event-stream`). */
  emit?: ToolEmitter | undefined;
  /** Who called (a client address, "stdio"): its share of queued extraction work (core/request-scope.ts). */
  client?: string | undefined;
  /** Aborts when the caller has gone: its queued work is dropped, its running extractions abandoned. */
  signal?: AbortSignal | undefined;
}

/**
 * Run a tool (validation included, as {@link runTool}) inside its span and count it.
 *
 * @example
 *   const output = await callTool(tool, req.body, ctx, { transport: "rest", requestId: req.id, metrics });
 */
export async function callTool(tool: ToolDefinition, raw: unknown, ctx: ServiceContext, scope: ToolCallScope): Promise<Record<string, unknown>> {
  const attributes = { [ATTR.tool]: tool.name, [ATTR.transport]: scope.transport, [ATTR.requestId]: scope.requestId };
  const parent = scope.headers ? contextFromHeaders(scope.headers) : undefined;
  return withSpan(`groundkit.tool.${tool.name}`, attributes, async (span) => {
    if (span.isRecording()) scope.onTrace?.(span.spanContext().traceId);
    const started = performance.now();
    try {
      const request = { client: scope.client ?? "local", signal: scope.signal };
      const output = await withRequestScope(request, () => runTool(tool, raw, ctx, scope.emit));
      scope.metrics?.toolCall(tool.name, scope.transport, "ok", (performance.now() - started) / 1000);
      if (scope.metrics) countOutput(scope.metrics, tool.name, output);
      return output;
    } catch (err) {
      scope.metrics?.toolCall(tool.name, scope.transport, "error", (performance.now() - started) / 1000);
      throw err;
    }
  }, parent);
}

/**
 * Verdicts and ingest counts from a tool's output, by the shapes the tools
 * share: a top-level `verdict` with its `citation` (fetch_chunk,
 * verify_citation), `results[]` each with `verification` and `citation`
 * (search), and the ingest summary.
 */
function countOutput(metrics: ServerMetrics, tool: string, output: Record<string, unknown>): void {
  const verdictOf = (item: unknown, verdict: unknown): void => {
    if (typeof verdict !== "string") return;
    const sourceClass = (item as { citation?: { source_class?: unknown } }).citation?.source_class;
    metrics.verdict(verdict, typeof sourceClass === "string" ? sourceClass : "unknown");
  };
  verdictOf(output, output.verdict);
  if (Array.isArray(output.results)) {
    // Full hits carry `verification`, compact ones (MCP's default) a bare `verdict`.
    for (const hit of output.results) {
      const h = hit as { verification?: { verdict?: unknown }; verdict?: unknown };
      verdictOf(hit, h.verification?.verdict ?? h.verdict);
    }
  }
  if (tool === "ingest") metrics.ingest(output as unknown as IngestCounts);
}
