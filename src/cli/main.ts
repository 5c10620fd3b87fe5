#!/usr/bin/env node
/** The `grk` command line: a thin shell over the library. */
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { toGroundkitError } from "../core/errors.js";
import { closeEmbeddingProviders } from "../embed/binding.js";
import { startTracingFromEnv, type TracingHandle } from "../obs/tracing-setup.js";
import { answerCommand } from "./answer.js";
import { collectionsCommand } from "./collections.js";
import { doctorCommand } from "./doctor.js";
import { evalCommand } from "./eval.js";
import { getCommand } from "./get.js";
import { lsCommand } from "./ls.js";
import { rmCommand } from "./rm.js";
import { updateCommand } from "./update.js";
import { ingestCommand } from "./ingest.js";
import { reembedCommand } from "./reembed.js";
import { searchCommand } from "./search.js";
import { serveMcpCommand } from "./serve-mcp.js";
import { serveCommand } from "./serve.js";
import { showCommand } from "./show.js";
import { statusCommand } from "./status.js";
import { passOptionsToSubcommands } from "./subcommand-options.js";
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
    getCommand(),
    lsCommand(),
    verifyCommand(),
    statusCommand(),
    doctorCommand(),
    collectionsCommand(),
    updateCommand(),
    rmCommand(),
    evalCommand(),
    reembedCommand(),
    serveCommand(),
    serveMcpCommand(),
  ]) {
    program.addCommand(cmd.exitOverride());
  }
  return passOptionsToSubcommands(program);
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
    await buildProgram().parseAsync(process.argv);
    await closeEmbeddingProviders();
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
