/**
 * The shape of one tool declaration (kept apart from the registry so tool
 * files can import it without an import cycle).
 */
import type { z } from "zod";
import type { ErrorCode } from "../core/errors.js";
import type { ServiceContext } from "./service-context.js";

/** How a tool appears as a REST route. `:name` path segments are input fields. */
export interface RestBinding {
  method: "GET" | "POST" | "DELETE";
  path: string;
}

/**
 * An output type without the index signatures loose objects add, so library
 * interfaces (which have none) can be returned as they are.
 */
export type Declared<T> = T extends readonly (infer U)[]
  ? Declared<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Declared<T[K]> }
    : T;

/** Progress a streaming tool reports while it works (REST renders each call as one SSE event). */
export type ToolEmitter = (event: string, data: unknown) => void;

/** One tool, declared once for every surface. */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  /** Wire name (snake_case, stable: clients and stored configs call tools by it). */
  name: string;
  title: string;
  description: string;
  /** `mutating` tools exist only when a shared secret is configured. */
  kind: "read" | "mutating";
  input: I;
  output: O;
  rest: RestBinding;
  /** MCP behaviour hints beyond read-only (which follows from `kind`). */
  hints: { destructive: boolean; idempotent: boolean; openWorld: boolean };
  /** Error code for an input that fails its schema, by top-level field (default INVALID_ARGUMENT). */
  invalidInputCodes?: Partial<Record<string, ErrorCode>>;
  /** Ingest-like work that may run longer than a query. */
  longRunning?: boolean;
  /**
   * Where the tool is offered (default both). `rest` keeps it off MCP: an
   * answer written by our chat model is for people and scripts; agents write
   * their own and check them with verify_quote.
   */
  surfaces?: "both" | "rest";
  /** The REST route may answer `Accept: text/event-stream` with the events `handler` emits, then the result. */
  streams?: boolean;
  handler(input: z.output<I>, ctx: ServiceContext, emit?: ToolEmitter): Promise<Declared<z.input<O>>>;
  /**
   * Arguments an MCP call gets when it leaves them out (search: the compact
   * form, sized for agents). REST keeps the declared defaults; the input
   * schema is the same on both surfaces and says so in its descriptions.
   */
  mcpDefaults?: (args: Record<string, unknown>) => Record<string, unknown>;
  /** The MCP text content for an output (default: the output as JSON). */
  renderText?: (output: Record<string, unknown>) => string;
}

/** Identity helper that keeps each tool's input and output types. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return def;
}
