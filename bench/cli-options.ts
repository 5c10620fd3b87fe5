/** The bench tools' command lines: a bad option ends in one usage line (exit 2), never a stack trace. */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** Print `bench: <message>` and exit 2. */
export function usage(message: string): never {
  // One line, though some of parseArgs's messages take three.
  console.error(`bench: ${message.replace(/\s*\n\s*/g, " ")} (--help lists the options)`);
  process.exit(2);
}

/** `parseArgs`, an unknown or malformed option ending in {@link usage}. */
export function parseOptions<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    usage((err as Error).message);
  }
}

/** With `--help` or `-h` among `args`, print `help` and exit 0: before any option is checked or any work starts. */
export function helpIfAsked(help: string, args: readonly string[] = process.argv.slice(2)): void {
  if (!args.includes("--help") && !args.includes("-h")) return;
  process.stdout.write(help);
  process.exit(0);
}

/** Option `--name`'s `value` as an integer of at least `min` (1: a positive integer), else {@link usage}. */
export function integerOption(name: string, value: string, min = 1): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) usage(`--${name} must be ${min === 1 ? "a positive integer" : `an integer of at least ${min}`}, not '${value}'`);
  return n;
}
