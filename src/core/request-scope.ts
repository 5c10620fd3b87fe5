/**
 * Who a piece of work is for, carried down the call chain without threading it
 * through every signature: the surfaces (REST, MCP, the web page) run each call
 * in a scope naming its client and a signal that aborts when the client has
 * gone (or its deadline passed); the work queues below (PDF/HTML re-extraction)
 * read it to bound each client's queue and to drop work nobody waits for.
 * Outside any scope the work is the process's own ("local"), never cancelled.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** One request's identity for scheduling and its cancellation. */
export interface RequestScope {
  /** Who asked: a client address on a server, "stdio" for serve-mcp, "local" for the CLI and library. */
  client: string;
  /** Aborts when the caller no longer wants the result (connection closed, deadline answered). */
  signal?: AbortSignal | undefined;
}

const LOCAL: RequestScope = { client: "local" };

const storage = new AsyncLocalStorage<RequestScope>();

/**
 * Run `fn` (and everything it awaits) on behalf of `scope`.
 *
 * @example
 *   await withRequestScope({ client: req.ip, signal }, () => col.search(query, { verify: true }));
 */
export function withRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The scope of the work running now ("local", never aborted, outside any). */
export function currentRequestScope(): RequestScope {
  return storage.getStore() ?? LOCAL;
}

/** A signal that aborts when any of `signals` does (undefined ones ignored). */
export function eitherSignal(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const given = signals.filter((s): s is AbortSignal => s !== undefined);
  if (given.length <= 1) return given[0];
  return AbortSignal.any(given);
}
