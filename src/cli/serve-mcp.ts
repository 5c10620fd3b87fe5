/**
 * `grk serve-mcp`: the MCP server over stdio, for Claude Desktop, Claude Code
 * and any MCP client. stdout carries ONLY JSON-RPC: from the moment the action
 * starts, every other write to stdout (ours, a library's, console.log) goes to
 * stderr, and so do all logs, at start-up and on errors.
 */
import { statSync } from "node:fs";
import { Writable } from "node:stream";
import { Command, Option } from "commander";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createLogger } from "../obs/logger.js";
import { PathScrubber } from "../service/errors-to-http.js";
import { createMcpServer } from "../service/mcp-server.js";
import { createServiceContext } from "../service/service-context.js";
import { action, collect, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { collectionSettings } from "../collection/settings.js";

interface ServeMcpFlags extends CommonFlags {
  baseDir?: string;
  allowedRoot?: string[];
  allowPrivateNetwork?: boolean;
  logFormat?: "text" | "json";
}


/**
 * Route stdout to stderr for everyone but the returned stream, which writes to
 * the real stdout (the JSON-RPC channel).
 */
export function claimStdout(): Writable {
  const realWrite = process.stdout.write.bind(process.stdout) as (chunk: unknown, cb: (err?: Error | null) => void) => boolean;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  return new Writable({
    write(chunk, _encoding, callback) {
      realWrite(chunk, (err) => callback(err ?? null));
    },
  });
}

export function serveMcpCommand(): Command {
  const cmd = new Command("serve-mcp")
    .description("serve the MCP tools over stdio (stdout carries only JSON-RPC; logs go to stderr)")
    .option("--base-dir <dir>", "containment root for verification (default: recorded at ingest)")
    .option("--allowed-root <dir>", "directory the ingest tool may read (repeatable; default: --base-dir)", collect)
    .option("--allow-private-network", "let the ingest tool fetch URLs on loopback/private hosts")
    .addOption(new Option("--log-format <format>", "log line format on stderr").choices(["text", "json"]).default("text"));
  withCommonOptions(cmd, { json: false }).action(
    action(async (flags: ServeMcpFlags) => {
      const rpcOut = claimStdout();
      const log = createLogger({ format: flags.logFormat ?? "text" });
      const loc = resolveLocation(flags);
      const token = process.env.GROUNDKIT_API_TOKEN;
      const mutating = typeof token === "string" && token.length > 0;
      const ctx = createServiceContext({
        indexDir: loc.indexDir,
        collection: loc.collection,
        settings: collectionSettings(loc.config),
        baseDir: flags.baseDir,
        allowedRoots: flags.allowedRoot,
        allowPrivateNetwork: flags.allowPrivateNetwork,
        mutating,
      });
      const indexDir = ctx.collections.indexDir;
      if (!isDirectory(indexDir)) log.warn("the index directory does not exist or is not a directory", { index_dir: indexDir });
      const scrubber = new PathScrubber(indexDir, () => [...ctx.allowedRoots, ...(ctx.baseDir ? [ctx.baseDir] : [])]);
      const server = createMcpServer(ctx, { mutating, log, scrubber, transport: "mcp-stdio" });
      server.server.onerror = (err) => log.warn("MCP protocol error", { error: err.message });
      const closed = new Promise<void>((resolve) => {
        server.server.onclose = () => resolve();
        process.stdin.once("end", () => void server.close());
      });
      await server.connect(new StdioServerTransport(process.stdin, rpcOut));
      log.info("serve-mcp ready", {
        index_dir: indexDir,
        collections: (await ctx.collections.names()).length,
        default_collection: ctx.defaultCollection,
        tools: mutating ? "read and mutating (GROUNDKIT_API_TOKEN set)" : "read-only",
      });
      await closed;
      await ctx.collections.closeAll();
    }),
  );
  return cmd;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
