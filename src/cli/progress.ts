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
