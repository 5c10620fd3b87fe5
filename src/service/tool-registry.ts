/**
 * The one tool registry. Each tool is declared once (name, description, zod
 * input and output schemas, REST binding, read-only or mutating, handler) and
 * rendered by mcp-server.ts as an MCP tool and by rest-server.ts as a route, so
 * neither surface can offer something the other lacks.
 */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { GroundkitError } from "../core/errors.js";
import type { ServiceContext } from "./service-context.js";
import type { ToolDefinition, ToolEmitter } from "./tool-definition.js";
import { deleteDocumentTool } from "./tools/delete-document.js";
import { fetchChunkTool } from "./tools/fetch-chunk.js";
import { getDocumentTool } from "./tools/get-document.js";
import { documentHistoryTool } from "./tools/document-history.js";
import { listDocumentsTool } from "./tools/list-documents.js";
import { indexStatusTool } from "./tools/index-status.js";
import { ingestTool } from "./tools/ingest.js";
import { listCollectionsTool } from "./tools/list-collections.js";
import { searchTool } from "./tools/search.js";
import { verifyCitationTool } from "./tools/verify-citation.js";
import { verifyQuoteTool } from "./tools/verify-quote.js";
import { answerTool } from "./tools/answer.js";
import { formatIssues } from "../core/validation.js";

export type { RestBinding, ToolDefinition } from "./tool-definition.js";

/** Every tool, in the order surfaces list them. */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  searchTool,
  fetchChunkTool,
  getDocumentTool,
  listDocumentsTool,
  documentHistoryTool,
  verifyCitationTool,
  verifyQuoteTool,
  answerTool,
  listCollectionsTool,
  indexStatusTool,
  ingestTool,
  deleteDocumentTool,
];

/**
 * The tools a surface offers: mutating ones only when a shared secret is
 * configured; REST-only ones (answer) not on MCP.
 */
export function toolsFor(opts: { mutating: boolean; surface?: "mcp" | "rest" }): ToolDefinition[] {
  return ALL_TOOLS.filter((t) => (t.kind === "read" || opts.mutating) && (opts.surface !== "mcp" || (t.surfaces ?? "both") === "both"));
}

/**
 * MCP annotations derived from the declaration. The destructive and idempotent
 * hints mean something only for a tool that writes (MCP spec), so read tools
 * carry readOnlyHint and openWorldHint alone; the title is the tool's own.
 */
export function annotationsOf(tool: ToolDefinition): ToolAnnotations {
  if (tool.kind === "read") return { readOnlyHint: true, openWorldHint: tool.hints.openWorld };
  return {
    readOnlyHint: false,
    destructiveHint: tool.hints.destructive,
    idempotentHint: tool.hints.idempotent,
    openWorldHint: tool.hints.openWorld,
  };
}

/**
 * Validate raw arguments against the tool's schema and run it. Both surfaces
 * call this, so validation and errors are the same everywhere.
 *
 * @throws GroundkitError for invalid input (400 / 422) and anything the library raises.
 */
export async function runTool(tool: ToolDefinition, raw: unknown, ctx: ServiceContext, emit?: ToolEmitter): Promise<Record<string, unknown>> {
  const parsed = tool.input.safeParse(raw ?? {});
  if (!parsed.success) throw invalidInput(tool, parsed.error);
  return (await tool.handler(parsed.data, ctx, emit)) as Record<string, unknown>;
}

function invalidInput(tool: ToolDefinition, error: z.ZodError): GroundkitError {
  const field = error.issues[0]?.path[0];
  const code = (typeof field === "string" ? tool.invalidInputCodes?.[field] : undefined) ?? "INVALID_ARGUMENT";
  return new GroundkitError(code, `Invalid arguments for ${tool.name}: ${formatIssues(error, { root: "(arguments)", max: 1 })}.`);
}
