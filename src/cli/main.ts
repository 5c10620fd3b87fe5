#!/usr/bin/env node
/** The `grk` command line: a thin shell over the library. */
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { toGroundkitError } from "../core/errors.js";
import { startTracingFromEnv, type TracingHandle } from "../obs/tracing-setup.js";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

/**
 * Every command, loaded on demand: a command's module pulls in what it needs (SQLite, ONNX,
 * pdf.js, fastify, the MCP SDK, …), so `grk --version` and `grk search` import only their own.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  ingest: async () => (await import("./ingest.js")).ingestCommand(),
  search: async () => (await import("./search.js")).searchCommand(),
  answer: async () => (await import("./answer.js")).answerCommand(),
  show: async () => (await import("./show.js")).showCommand(),
  get: async () => (await import("./get.js")).getCommand(),
  ls: async () => (await import("./ls.js")).lsCommand(),
  history: async () => (await import("./history.js")).historyCommand(),
  verify: async () => (await import("./verify.js")).verifyCommand(),
  status: async () => (await import("./status.js")).statusCommand(),
  doctor: async () => (await import("./doctor.js")).doctorCommand(),
  collections: async () => (await import("./collections.js")).collectionsCommand(),
  update: async () => (await import("./update.js")).updateCommand(),
  rm: async () => (await import("./rm.js")).rmCommand(),
  eval: async () => (await import("./eval.js")).evalCommand(),
  reembed: async () => (await import("./reembed.js")).reembedCommand(),
  serve: async () => (await import("./serve.js")).serveCommand(),
  "serve-mcp": async () => (await import("./serve-mcp.js")).serveMcpCommand(),
};

/**
 * The commands this run needs: the one named on the command line, none for a bare
 * `--version`, all of them otherwise (`--help`, `help`, a mistyped name that gets a suggestion).
 */
export function commandsFor(argv: readonly string[]): string[] {
  const first = argv[0];
  if (first === "--version" || first === "-V") return [];
  if (first !== undefined && Object.hasOwn(COMMANDS, first)) return [first];
  return Object.keys(COMMANDS);
}

export async function buildProgram(argv: readonly string[] = process.argv.slice(2)): Promise<Command> {
  const program = new Command("grk")
    .description("groundkit: retrieval with citations you can re-verify")
    .version(pkg.version)
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();
  const names = commandsFor(argv);
  for (const name of names) {
    program.addCommand((await COMMANDS[name]!()).exitOverride());
  }
  if (names.length === 0) return program;
  // Loaded with the commands only, so `grk --version` reads nothing of ours but this file.
  const { passOptionsToSubcommands } = await import("./subcommand-options.js");
  return passOptionsToSubcommands(program);
}

/** Close the embedding providers a command opened (their module is loaded only if one was). */
async function closeProviders(commands: readonly string[]): Promise<void> {
  if (commands.length === 0) return;
  const { closeEmbeddingProviders } = await import("../embed/binding.js");
  await closeEmbeddingProviders();
}

// A reader that stops early (`grk search … | head`) closes the pipe: that is not an error.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});

// Tracing is on only when the OTEL_* environment asks for it (docs/operations.md).
let tracing: TracingHandle | undefined;
try {
  tracing = await startTracingFromEnv({ serviceVersion: pkg.version, warn: (m) => process.stderr.write(`warning: ${m}\n`) });
} catch (err) {
  const e = toGroundkitError(err);
  process.stderr.write(`error[${e.code}]: ${e.message}\nhint: ${e.hint}\n`);
  process.exitCode = 2;
}

if (tracing) {
  try {
    const commands = commandsFor(process.argv.slice(2));
    await (await buildProgram()).parseAsync(process.argv);
    await closeProviders(commands);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit 0; every other commander error is a usage error.
      process.exitCode = err.exitCode === 0 ? 0 : 2;
    } else {
      throw err;
    }
  } finally {
    // The work is done; an exporter still retrying an absent collector must not keep the command running.
    if (!(await tracing.shutdown())) process.exit(process.exitCode ?? 0);
  }
}
