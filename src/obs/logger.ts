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
}

/** A logger writing to stderr. */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const min = ORDER[opts.level ?? "info"];
  const format = opts.format ?? "text";
  const base = opts.fields;
  const write = opts.write ?? ((line: string) => process.stderr.write(line + "\n"));
  const log = (level: LogLevel, msg: string, fields?: Record<string, unknown>): void => {
    if (ORDER[level] < min) return;
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
