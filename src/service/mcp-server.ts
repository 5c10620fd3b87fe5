/**
 * The registry rendered as an MCP server: one MCP tool per registry entry, with
 * annotations (readOnlyHint…), input and output schemas, structured content
 * plus the same JSON as a text block, and instructions describing the
 * search → fetch_chunk workflow. Transport-agnostic: stdio (serve-mcp) and
 * Streamable HTTP (serve's /mcp) connect their own transport to it.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../obs/logger.js";
import { toErrorEnvelope, type PathScrubber } from "./errors-to-http.js";
import type { ServiceContext } from "./service-context.js";
import { annotationsOf, runTool, toolsFor, type ToolDefinition } from "./tool-registry.js";

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
  "`list_collections` and `index_status` describe what is indexed.",
].join(" ");

export interface McpServerOptions {
  /** Offer the mutating tools (ingest, delete_document). */
  mutating: boolean;
  log: Logger;
  scrubber: PathScrubber;
  /** Request id for error envelopes (HTTP passes its X-Request-ID). */
  requestId?: string;
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
      outputSchema: tool.output,
      annotations: annotationsOf(tool),
    },
    async (args: unknown): Promise<CallToolResult> => {
      const started = performance.now();
      try {
        const output = await runTool(tool, args, ctx);
        opts.log.info("tool", { tool: tool.name, ok: true, duration_ms: Math.round(performance.now() - started) });
        // Structured content, and the same JSON as text for clients that read only text.
        return { content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output };
      } catch (err) {
        const requestId = opts.requestId ?? randomUUID();
        const { body } = toErrorEnvelope(err, { requestId, scrubber: opts.scrubber, log: opts.log });
        opts.log.info("tool", { tool: tool.name, ok: false, code: body.error.code, request_id: requestId });
        return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
      }
    },
  );
}
