/**
 * What every command shares: the common flags, output helpers, and the error
 * boundary that turns any failure into `error[CODE]: message` plus a hint.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { collectionSettings } from "../collection/settings.js";
import { loadConfigFile, type ConfigFile } from "../core/config.js";
import { toGroundkitError } from "../core/errors.js";

export interface CommonFlags {
  indexDir?: string;
  collection?: string;
  json?: boolean;
  debug?: boolean;
  config?: string;
}

/** Add --index-dir, --collection, --json, --config and --debug to a command. */
export function withCommonOptions(cmd: Command, opts: { json?: boolean } = { json: true }): Command {
  cmd
    .option("--index-dir <dir>", "directory holding collection files (default: .groundkit)")
    .option("--collection <name>", "collection name (default: default)")
    .option("--config <file>", "JSON config file (default: ./groundkit.config.json if present)")
    .addOption(new Option("--debug", "print stack traces on errors"));
  if (opts.json) cmd.option("--json", "print results as JSON on stdout");
  return cmd;
}

/** Flags merged with the config file (flags win), plus the config's retrieval settings. */
export function resolveLocation(
  flags: CommonFlags,
): { indexDir?: string; collection?: string; config: ConfigFile } & ReturnType<typeof collectionSettings> {
  const config = loadConfigFile(flags.config);
  return {
    indexDir: flags.indexDir ?? config.index_dir,
    collection: flags.collection ?? config.collection,
    config,
    ...collectionSettings(config),
  };
}

/** Print a value as pretty JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

/** Print a line on stdout. */
export function println(line = ""): void {
  process.stdout.write(line + "\n");
}

/**
 * Wrap a command action: errors print `error[CODE]: message` and a hint on
 * stderr and exit 1 (2 for usage errors); no stack trace unless --debug.
 */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<number | void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const cmd = args[args.length - 1] as Command;
    const debug = Boolean((cmd.opts() as CommonFlags).debug);
    try {
      const code = await fn(...args);
      process.exitCode = code ?? 0;
    } catch (err) {
      const e = toGroundkitError(err);
      process.stderr.write(`error[${e.code}]: ${e.message}\nhint: ${e.hint}\n`);
      if (debug && err instanceof Error && err.stack) process.stderr.write(err.stack + "\n");
      process.exitCode = e.code === "USAGE" || e.code === "INVALID_ARGUMENT" ? 2 : 1;
    }
  };
}

/** Plain decimal digits: what `Number()` would also accept ("0x10", "1e3", " 5", "5.0", "") is refused. */
export const DECIMAL_INTEGER = /^-?[0-9]{1,15}$/;

/** Parse an integer flag with bounds, as a usage error when invalid. */
export function intFlag(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = DECIMAL_INTEGER.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}; got '${value}'.`);
    }
    return n;
  };
}

/** Parse a finite decimal number flag (e.g. a score), as a usage error when invalid. */
export function numberFlag(name: string) {
  return (value: string): number => {
    const n = /^-?(?:\d+\.?\d*|\.\d+)$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a decimal number; got '${value}'.`);
    return n;
  };
}

/** Accumulate a repeatable flag's values. */
export function collect(value: string, prev: string[] = []): string[] {
  return [...prev, value];
}
