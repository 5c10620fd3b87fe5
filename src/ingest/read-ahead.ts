/**
 * Read-ahead for ingest: while one file is chunked and indexed on the main
 * thread, the walk goes on and the next files are already being read by the
 * thread pool. Without it the main thread sat idle through every file's
 * stat/open/read/close round trips.
 */

/** An item from the source, with the outcome of the work started for it. */
export interface AheadItem<T, R> {
  item: T;
  /** Settles with the started work's value or error (never rejects: no unhandled rejections). */
  result: Promise<{ ok: true; value: R } | { ok: false; error: unknown }> | undefined;
}

/** Limits on work started but not yet consumed. */
export interface ReadAheadLimits {
  /** Items at most. */
  items: number;
  /** Total weight (e.g. bytes) at most; one item is always allowed, whatever its weight. */
  weight: number;
}

/**
 * Yield `source`'s items in order, each with `start(item)` already running
 * (`start` may return undefined for items that need no work). The source is
 * pulled in the background, up to `limits` ahead of the consumer. An error from
 * the source is thrown after the items before it were yielded. Stopping early
 * (break or throw in the consumer) closes the source.
 *
 * @example
 *   for await (const { item, result } of readAhead(files, (f) => readFile(f), () => 1, { items: 16, weight: 16 })) {
 *     const r = await result;
 *   }
 */
export async function* readAhead<T, R>(
  source: AsyncIterable<T>,
  start: (item: T) => Promise<R> | undefined,
  weightOf: (item: T) => number,
  limits: ReadAheadLimits,
): AsyncGenerator<AheadItem<T, R>> {
  const queue: Array<AheadItem<T, R> & { weight: number }> = [];
  let queuedWeight = 0;
  let finished = false;
  let stopped = false;
  let failure: { error: unknown } | undefined;
  let wakeConsumer: (() => void) | undefined;
  let wakeProducer: (() => void) | undefined;
  const hasRoom = (): boolean => queue.length === 0 || (queue.length < limits.items && queuedWeight < limits.weight);

  const producer = (async () => {
    try {
      for await (const item of source) {
        const work = start(item);
        const weight = work === undefined ? 0 : weightOf(item);
        const result = work?.then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        queue.push({ item, result, weight });
        queuedWeight += weight;
        wakeConsumer?.();
        while (!stopped && !hasRoom()) await new Promise<void>((resolve) => (wakeProducer = resolve));
        if (stopped) break;
      }
    } catch (error) {
      failure = { error };
    } finally {
      finished = true;
      wakeConsumer?.();
    }
  })();

  try {
    for (;;) {
      const next = queue.shift();
      if (next === undefined) {
        if (finished) {
          if (failure) throw failure.error;
          return;
        }
        await new Promise<void>((resolve) => (wakeConsumer = resolve));
        wakeConsumer = undefined;
        continue;
      }
      queuedWeight -= next.weight;
      wakeProducer?.();
      wakeProducer = undefined;
      yield { item: next.item, result: next.result };
    }
  } finally {
    stopped = true;
    wakeProducer?.();
    await producer;
  }
}
