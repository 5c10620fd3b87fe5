/**
 * Coalescing file-system events into batches: a batch starts once changes
 * have been quiet for `quietMs` (a `git checkout` of thousands of files, or
 * an editor's write-temp-then-rename, is one burst, hence one batch), or once
 * the oldest waiting change is `maxWaitMs` old, so a file rewritten forever
 * cannot starve the others. One batch runs at a time; what changes meanwhile
 * waits for the next.
 */

export interface ChangeBatcherOptions {
  /** Quiet time that closes a batch (default 300 ms). */
  quietMs?: number | undefined;
  /** Longest a change waits while others keep arriving (default 10 s). */
  maxWaitMs?: number | undefined;
}

export class ChangeBatcher {
  private pending = new Set<string>();
  private firstAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  private readonly quietMs: number;
  private readonly maxWaitMs: number;

  constructor(
    /** Runs one batch (its paths, deduplicated); a rejection is the caller's to log, the batcher goes on. */
    private readonly run: (paths: string[]) => Promise<void>,
    opts: ChangeBatcherOptions = {},
  ) {
    this.quietMs = opts.quietMs ?? 300;
    this.maxWaitMs = opts.maxWaitMs ?? 10_000;
  }

  add(path: string): void {
    if (this.closed) return;
    if (this.pending.size === 0) this.firstAt = performance.now();
    this.pending.add(path);
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (this.running || this.pending.size === 0) return;
    const waited = performance.now() - this.firstAt;
    this.timer = setTimeout(() => void this.flush(), Math.max(0, Math.min(this.quietMs, this.maxWaitMs - waited)));
  }

  private async flush(): Promise<void> {
    if (this.closed || this.running || this.pending.size === 0) return;
    const paths = [...this.pending];
    this.pending = new Set();
    this.running = this.run(paths).catch(() => undefined);
    await this.running;
    this.running = undefined;
    this.schedule();
  }

  /** Stop batching; resolves once a running batch has finished (changes still waiting are dropped). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
