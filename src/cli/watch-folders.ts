/** What `grk ingest --watch` and `grk serve --watch` share: which inputs can be watched, and waiting for a signal. */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { GroundkitError } from "../core/errors.js";
import { hasUrlScheme } from "../net/url-shape.js";
import { createLogger, type Logger } from "../obs/logger.js";
import { watchAndIngest, type WatchIngestOptions } from "../watch/watch-ingest.js";
import { intFlag } from "./common.js";

/** Add `--debounce <ms>`: the quiet time that closes a batch of changes. */
export function withDebounceOption(cmd: Command): Command {
  return cmd.option(
    "--debounce <ms>",
    "with --watch: quiet time that closes a batch of changes (a burst like a git checkout is one batch)",
    intFlag("--debounce", 10, 60_000),
    300,
  );
}

/**
 * The folders to watch: every input must be a folder (or not exist yet: it is
 * waited for). Files and URLs are refused: a watch keeps folders current.
 */
export function watchedFolders(inputs: readonly string[]): string[] {
  return inputs.map((input) => {
    if (hasUrlScheme(input)) {
      throw new GroundkitError("USAGE", `--watch keeps folders indexed; ${input} is a URL: ingest it without --watch.`);
    }
    const path = resolve(input);
    let isFile = false;
    try {
      isFile = !statSync(path).isDirectory();
    } catch {
      // Not there yet: the watcher waits for it to appear.
    }
    if (isFile) throw new GroundkitError("USAGE", `--watch keeps folders indexed; ${input} is a file: watch its folder instead.`);
    return path;
  });
}

/** Resolve on the first SIGINT or SIGTERM (a second one ends the process the default way). */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((done) => {
    const on = (signal: NodeJS.Signals) => {
      process.off("SIGINT", on);
      process.off("SIGTERM", on);
      done(signal);
    };
    process.on("SIGINT", on);
    process.on("SIGTERM", on);
  });
}

/**
 * Watch `folders` and run `ingest` for each batch until SIGINT/SIGTERM, then
 * stop watching and let a running batch finish (its documents commit whole).
 */
export async function keepWatching(
  folders: string[],
  quietMs: number,
  ingest: WatchIngestOptions["ingest"],
  log: Logger = createLogger(),
): Promise<void> {
  const watch = await watchAndIngest({ folders, ingest, log, quietMs });
  const signal = await untilSignal();
  log.info(`watch: ${signal}: stopping (a running batch finishes first)`);
  await watch.close();
}
