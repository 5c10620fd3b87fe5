/**
 * A one-line progress display on stderr, shown only on a TTY (quiet otherwise),
 * redrawn at most every 100 ms.
 */

export interface ProgressLine {
  update(text: string): void;
  done(): void;
}

/** Create a progress line; a no-op when stderr is not a TTY or `enabled` is false. */
export function createProgress(enabled = true): ProgressLine {
  const stream = process.stderr;
  if (!enabled || !stream.isTTY) return { update: () => undefined, done: () => undefined };
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
 * A rate and ETA tracker for counted work, e.g. `12.4 chunks/s, ETA 3m05s`.
 * The clock starts at the first update, so model loading is not averaged in.
 */
export function createRate(unit: string, now: () => number = () => Date.now()): (done: number, total: number) => string {
  let start: { t: number; done: number } | undefined;
  return (done, total) => {
    const t = now();
    start ??= { t, done };
    const secs = (t - start.t) / 1000;
    if (secs < 0.5 || done <= start.done) return "";
    const rate = (done - start.done) / secs;
    const left = Math.round(Math.max(0, total - done) / rate);
    const eta = left >= 60 ? `${Math.floor(left / 60)}m${String(left % 60).padStart(2, "0")}s` : `${left}s`;
    return `${rate.toFixed(1)} ${unit}/s, ETA ${eta}`;
  };
}
