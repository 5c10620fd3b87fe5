#!/usr/bin/env node
/** The `grk` command line: a thin shell over the library. */
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { closeEmbeddingProviders } from "../embed/binding.js";
import { answerCommand } from "./answer.js";
import { collectionsCommand } from "./collections.js";
import { evalCommand } from "./eval.js";
import { ingestCommand } from "./ingest.js";
import { reembedCommand } from "./reembed.js";
import { searchCommand } from "./search.js";
import { serveMcpCommand } from "./serve-mcp.js";
import { serveCommand } from "./serve.js";
import { showCommand } from "./show.js";
import { statusCommand } from "./status.js";
import { verifyCommand } from "./verify.js";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

export function buildProgram(): Command {
  const program = new Command("grk")
    .description("groundkit: retrieval with citations you can re-verify")
    .version(pkg.version)
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();
  for (const cmd of [
    ingestCommand(),
    searchCommand(),
    answerCommand(),
    showCommand(),
    verifyCommand(),
    statusCommand(),
    collectionsCommand(),
    evalCommand(),
    reembedCommand(),
    serveCommand(),
    serveMcpCommand(),
  ]) {
    program.addCommand(cmd.exitOverride());
  }
  return program;
}

// A reader that stops early (`grk search … | head`) closes the pipe: that is not an error.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});

try {
  await buildProgram().parseAsync(process.argv);
  await closeEmbeddingProviders();
} catch (err) {
  if (err instanceof CommanderError) {
    // --help and --version exit 0; every other commander error is a usage error.
    process.exitCode = err.exitCode === 0 ? 0 : 2;
  } else {
    throw err;
  }
}
