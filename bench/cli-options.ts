/** The bench tools' command lines: a bad option ends in one usage line (exit 2), never a stack trace. */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** Print `bench: <message>` and exit 2. */
export function usage(message: string): never {
  // One line, though some of parseArgs's messages take three.
  console.error(`bench: ${message.replace(/\s*\n\s*/g, " ")} (--help lists the options)`);
  process.exit(2);
}

/**
 * `parseArgs`, an unknown or malformed option ending in {@link usage}. With `--help` or `-h` given as an
 * option (not as another option's value, as in `--name -h`), print `help` and exit 0 instead, before any
 * option is checked or any work starts.
 */
export function parseOptions<T extends ParseArgsConfig>(config: T, help: string): ReturnType<typeof parseArgs<T>> {
  if (asksForHelp(config)) {
    process.stdout.write(help);
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (err) {
    usage((err as Error).message);
  }
}

/** Whether `--help`/`-h` is among the options, read leniently: unknown options and bad values do not hide it. */
function asksForHelp(config: ParseArgsConfig): boolean {
  const { tokens } = parseArgs({
    args: config.args ?? process.argv.slice(2),
    options: { ...config.options, help: { type: "boolean", short: "h" } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  return tokens.some((t) => t.kind === "option" && t.name === "help");
}

/** Option `--name`'s `value` as an integer of at least `min` (1: a positive integer), else {@link usage}. */
export function integerOption(name: string, value: string, min = 1): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) usage(`--${name} must be ${min === 1 ? "a positive integer" : `an integer of at least ${min}`}, not '${value}'`);
  return n;
}
