/**
 * Progress of long work, on stderr, in one of three forms:
 * - on a terminal, one line redrawn at most every 100 ms;
 * - off a terminal (a log file, CI, a pipe), a plain line every {@link PLAIN_INTERVAL_MS}, the latest
 *   state with the time elapsed, so a log shows the work is alive even while one large file is embedded;
 * - with `--json`, NDJSON events (`{"type":"progress",…}`, one a line) for tools: on change at most one
 *   a second, and the latest state again every {@link PLAIN_INTERVAL_MS}.
 * Stdout keeps only the command's result.
 */

export interface ProgressLine {
  /** The latest state: `text` for people, `fields` (counts, rates) for `--json` events. */
  update(text: string, fields?: Record<string, number | string>): void;
  done(): void;
}

/** How often a plain progress line is printed off a terminal. */
export const PLAIN_INTERVAL_MS = 5000;

/** How often a `--json` progress event is written, at most. */
const JSON_INTERVAL_MS = 1000;

/**
 * Create a progress display (a no-op when `enabled` is false).
 *
 * @example
 *   const progress = createProgress(true, { json: flags.json, command: "ingest" });
 *   progress.update("ingest: 3 seen", { files_seen: 3 });
 *   progress.done();
 */
export function createProgress(
  enabled = true,
  opts: { json?: boolean | undefined; command?: string; stream?: NodeJS.WriteStream } = {},
): ProgressLine {
  const stream = opts.stream ?? process.stderr;
  if (!enabled) return { update: () => undefined, done: () => undefined };
  const started = Date.now();
  const elapsed = (): number => Math.round((Date.now() - started) / 1000);
  if (opts.json || !stream.isTTY) {
    let latest: { text: string; fields: Record<string, number | string> } | undefined;
    let lastEvent = 0;
    const write = (): void => {
      if (!latest) return;
      stream.write(
        opts.json
          ? JSON.stringify({ type: "progress", command: opts.command, elapsed_s: elapsed(), ...latest.fields, message: latest.text }) + "\n"
          : `[${elapsed()}s] ${latest.text}\n`,
      );
    };
    // A timer, not the updates, paces the lines: a batch that takes minutes still shows every interval.
    const timer = setInterval(write, PLAIN_INTERVAL_MS);
    timer.unref();
    return {
      update(text, fields = {}) {
        latest = { text, fields };
        const now = Date.now();
        if (opts.json && now - lastEvent >= JSON_INTERVAL_MS) {
          lastEvent = now;
          write();
        }
      },
      done() {
        clearInterval(timer);
      },
    };
  }
  let last = 0;
  let shown = false;
  return {
    update(text: string) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      const width = Math.max(20, (stream.columns ?? 80) - 1);
      stream.write("\r\x1b[K" + (text.length > width ? text.slice(0, width - 1) + "…" : text));
      shown = true;
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
    },
  };
}

/**
 * A rate and ETA tracker for counted work, e.g. `12.4 chunks/s, ETA 3m05s` (no ETA when the
 * total is not known, as in a dense ingest, whose chunks are counted as files are read).
 * The clock starts at the first update, so model loading is not averaged in.
 */
export function createRate(unit: string, now: () => number = () => Date.now()): (done: number, total?: number) => string {
  let start: { t: number; done: number } | undefined;
  return (done, total) => {
    const t = now();
    start ??= { t, done };
    const secs = (t - start.t) / 1000;
    if (secs < 0.5 || done <= start.done) return "";
    const rate = (done - start.done) / secs;
    if (total === undefined) return `${rate.toFixed(1)} ${unit}/s`;
    const left = Math.round(Math.max(0, total - done) / rate);
    const eta = left >= 60 ? `${Math.floor(left / 60)}m${String(left % 60).padStart(2, "0")}s` : `${left}s`;
    return `${rate.toFixed(1)} ${unit}/s, ETA ${eta}`;
  };
}
