/**
 * The registry rendered as an MCP server: one MCP tool per registry entry, with
 * annotations (readOnlyHint…) and its input schema, structured content plus a
 * text block (the tool's plain rendering, e.g. search's, else the same JSON),
 * and instructions describing the search → fetch_chunk workflow. Output
 * schemas are left out of `tools/list` (ADR 0029): an agent pays for that list
 * on every connection, and the outputs are documented in /openapi.json. Transport-agnostic: stdio (serve-mcp) and
 * Streamable HTTP (serve's /mcp) connect their own transport to it.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eitherSignal } from "../core/request-scope.js";
import type { Logger } from "../obs/logger.js";
import type { ServerMetrics, Transport } from "../obs/server-metrics.js";
import { toErrorEnvelope, type PathScrubber } from "./errors-to-http.js";
import type { ServiceContext } from "./service-context.js";
import { callTool } from "./tool-telemetry.js";
import { annotationsOf, toolsFor, type ToolDefinition } from "./tool-registry.js";

/** The package version, reported as the MCP server version. */
export const SERVER_VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** What an MCP client is told about using this server. */
export const SERVER_INSTRUCTIONS = [
  "groundkit answers questions from an indexed document collection with passages whose citations can be re-verified.",
  "Workflow: call `search` with the user's question (optionally `collection`, `top_k`, `mode`, `filters`).",
  "Each hit has a `chunk_id` and a `citation` (source, code-point offsets, lines, page, text hash).",
  "Before quoting a passage, call `fetch_chunk` with its `chunk_id`: it re-reads the source and returns",
  "`verdict` verified / drifted / unresolvable with a `detail`; the text is returned only when verified.",
  "Quote only verified text and cite its source and lines. Before you rely on a quote in your answer, call",
  "`verify_quote` with the exact words and the `chunk_id` (or `document_id`): it says whether they occur verbatim",
  "and returns the citation of each occurrence. `verify_citation` re-checks a citation you kept;",
  "`list_collections` and `index_status` describe what is indexed; a call without `collection` uses the server's default.",
  "`search` answers in compact form (passage, citation and score per hit; `max_chars` per passage, `max_total_chars`",
  "overall); `format: \"full\"` adds chunk text, headings and term offsets. `min_score` drops weak hits; `no_results` says why none matched.",
].join(" ");

export interface McpServerOptions {
  /** Offer the mutating tools (ingest, delete_document). */
  mutating: boolean;
  log: Logger;
  scrubber: PathScrubber;
  /** Request id for spans and error envelopes (HTTP passes its X-Request-ID; stdio mints one per call). */
  requestId?: string;
  /** mcp-stdio (serve-mcp) or mcp-http (serve's /mcp). */
  transport: Transport;
  /** The server's metrics (serve's /mcp). */
  metrics?: ServerMetrics | undefined;
  /** The HTTP request's headers (serve's /mcp), for a caller's `traceparent`. */
  headers?: Record<string, string | string[] | undefined> | undefined;
  /** Told each call's tool name and trace id (for the HTTP access log). */
  onToolCall?: ((tool: string, traceId: string | undefined) => void) | undefined;
  /** Who calls (serve's /mcp: the client address; default "stdio"), for its share of queued extraction work. */
  client?: string | undefined;
  /** Aborts when the HTTP request's response closes (serve's /mcp); a call's own MCP cancellation aborts it too. */
  signal?: AbortSignal | undefined;
}

/**
 * Build an MCP server over the registry.
 *
 * @example
 *   const server = createMcpServer(ctx, { mutating: false, log, scrubber });
 *   await server.connect(new StdioServerTransport());
 */
export function createMcpServer(ctx: ServiceContext, opts: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: "groundkit", title: "groundkit", version: SERVER_VERSION },
    { instructions: SERVER_INSTRUCTIONS },
  );
  for (const tool of toolsFor({ mutating: opts.mutating, surface: "mcp" })) registerTool(server, tool, ctx, opts);
  return server;
}

function registerTool(server: McpServer, tool: ToolDefinition, ctx: ServiceContext, opts: McpServerOptions): void {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      annotations: annotationsOf(tool),
    },
    async (args: unknown, extra: { signal?: AbortSignal }): Promise<CallToolResult> => {
      const started = performance.now();
      const requestId = opts.requestId ?? randomUUID();
      let traceId: string | undefined;
      opts.onToolCall?.(tool.name, undefined);
      const scope = {
        transport: opts.transport,
        requestId,
        metrics: opts.metrics,
        headers: opts.headers,
        onTrace: (id: string) => {
          traceId = id;
          opts.onToolCall?.(tool.name, id);
        },
        client: opts.client ?? "stdio",
        signal: eitherSignal(opts.signal, extra.signal),
      };
      try {
        const given = args !== null && typeof args === "object" && tool.mcpDefaults ? tool.mcpDefaults(args as Record<string, unknown>) : args;
        const output = await callTool(tool, given, ctx, scope);
        const duration_ms = Math.round(performance.now() - started);
        opts.log.info("tool", { tool: tool.name, ok: true, request_id: requestId, duration_ms, ...(traceId ? { trace_id: traceId } : {}) });
        // Structured content, and for clients that read only text the tool's own rendering (else the JSON).
        const text = tool.renderText ? tool.renderText(output) : JSON.stringify(output);
        return { content: [{ type: "text", text }], structuredContent: output };
      } catch (err) {
        const { body } = toErrorEnvelope(err, { requestId, scrubber: opts.scrubber, log: opts.log });
        opts.metrics?.error(body.error.code, opts.transport);
        opts.log.info("tool", { tool: tool.name, ok: false, code: body.error.code, request_id: requestId, ...(traceId ? { trace_id: traceId } : {}) });
        return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
      }
    },
  );
}
