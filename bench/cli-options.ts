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
