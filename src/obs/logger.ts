/**
 * Logs go to stderr (stdout carries results, and in serve-mcp only JSON-RPC).
 * Text by default, one JSON object per line with `--log-format json`. Never log
 * document text, queries or secrets at info level.
 */

export type LogLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface LoggerOptions {
  level?: LogLevel;
  format?: "text" | "json";
  /** Where lines go; stderr by default. */
  write?: (line: string) => void;
  /** Fields every line carries (a serve worker's id and pid). */
  fields?: Record<string, unknown>;
  /**
   * Gather debug and info lines and write them once per event-loop turn (or
   * every 64 KiB) instead of one write each: a server's access log costs one
   * write per turn, not per request. Warnings and errors are written at once,
   * with whatever was gathered before them, and the rest when the process exits.
   * Only for stderr (ignored with `write`).
   */
  batch?: boolean;
}

/** Flush gathered lines at 64 KiB even within one turn. */
const BATCH_BYTES = 64 * 1024;

/** A line writer that gathers lines and writes them in one call per event-loop turn. */
function batchedWriter(write: (text: string) => void): { line: (line: string) => void; flush: () => void } {
  let pending = "";
  let scheduled = false;
  const flush = (): void => {
    if (pending === "") return;
    const text = pending;
    pending = "";
    write(text);
  };
  const onTurnEnd = (): void => {
    scheduled = false;
    flush();
  };
  process.once("exit", flush);
  return {
    line: (line) => {
      pending += line + "\n";
      if (pending.length >= BATCH_BYTES) flush();
      else if (!scheduled) {
        scheduled = true;
        // After this turn's I/O callbacks: the lines of every request answered in it go in one write.
        setImmediate(onTurnEnd).unref();
      }
    },
    flush,
  };
}

/** A logger writing to stderr. */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const min = ORDER[opts.level ?? "info"];
  const format = opts.format ?? "text";
  const base = opts.fields;
  // Batching is for stderr; a given `write` is called once per line.
  const batched = opts.batch && !opts.write ? batchedWriter((text) => process.stderr.write(text)) : undefined;
  const direct = opts.write ?? ((line: string) => process.stderr.write(line + "\n"));
  const log = (level: LogLevel, msg: string, fields?: Record<string, unknown>): void => {
    if (ORDER[level] < min) return;
    let write = direct;
    if (batched) {
      if (ORDER[level] < ORDER.warn) write = batched.line;
      else batched.flush();
    }
    if (format === "json") {
      write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...base, ...fields }));
    } else {
      const all = base ? { ...base, ...fields } : fields;
      const extra = all && Object.keys(all).length ? " " + JSON.stringify(all) : "";
      write(`${level}: ${msg}${extra}`);
    }
  };
  return {
    debug: (m, f) => log("debug", m, f),
    info: (m, f) => log("info", m, f),
    warn: (m, f) => log("warn", m, f),
    error: (m, f) => log("error", m, f),
  };
}
