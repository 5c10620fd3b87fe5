/**
 * Measurement helpers: latency summaries, RSS sampling, forced GC, sizes on disk.
 *
 * Percentiles are nearest-rank (an observed sample, never an interpolation),
 * shared with the eval harness.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { percentile } from "../src/eval/latency.js";

/** A latency distribution in milliseconds, with how it was obtained. */
export interface Latency {
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  mean_ms: number;
  max_ms: number;
  /** Timed runs (after warm-up). */
  runs: number;
  /** Untimed warm-up calls before them. */
  warmup: number;
}

/** Rounded to `digits`; `+ 0` turns a rounded -0 into 0, which JSON cannot keep apart anyway. */
const round = (x: number, digits = 3): number => Number(x.toFixed(digits)) + 0;

/** Summarize timed samples (ms). Throws on an empty list. */
export function summarize(samples: readonly number[], warmup: number): Latency {
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return {
    p50_ms: round(percentile(samples, 50)),
    p95_ms: round(percentile(samples, 95)),
    p99_ms: round(percentile(samples, 99)),
    mean_ms: round(mean),
    max_ms: round(Math.max(...samples)),
    runs: samples.length,
    warmup,
  };
}

/** Milliseconds elapsed since `t0` (from performance.now()). */
export function since(t0: number): number {
  return performance.now() - t0;
}

/** Bytes to MiB, rounded. */
export function mib(bytes: number): number {
  return round(bytes / (1024 * 1024), 1);
}

/** What an {@link RssSampler} saw. */
export interface RssReport {
  /** Largest sampled RSS (MiB). */
  peak_rss_mb: number;
  /** The kernel's high-water mark for this process (process.resourceUsage().maxRSS, MiB). */
  max_rss_mb: number;
  /** RSS at the start of sampling (MiB). */
  start_rss_mb: number;
  /** RSS over time: [seconds since start, MiB], at most ~60 points. */
  series: Array<[number, number]>;
  /**
   * The anonymous part of the same samples (Linux RssAnon: the process's own
   * allocations), [seconds, MiB]; the rest of RSS is file-backed (the index's
   * memory-mapped pages, shared libraries), which the kernel can drop. Empty
   * where /proc is unavailable.
   */
  anon_series: Array<[number, number]>;
  interval_ms: number;
}

/** Linux's RssAnon of this process in bytes, or undefined off Linux. */
function anonymousRss(): number | undefined {
  try {
    const kib = /^RssAnon:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
    return kib === undefined ? undefined : Number(kib) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * Samples `process.memoryUsage().rss` on an interval. The interval only fires
 * when the event loop turns, so long synchronous stretches are covered by the
 * kernel's maxRSS, reported alongside.
 */
export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  private readonly started = performance.now();
  private readonly samples: Array<[number, number, number | undefined]> = [];
  private peak = 0;

  constructor(readonly intervalMs = 100) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  /** Take a sample now (call at natural checkpoints too). */
  sample(): void {
    const rss = process.memoryUsage().rss;
    if (rss > this.peak) this.peak = rss;
    this.samples.push([(performance.now() - this.started) / 1000, rss, anonymousRss()]);
  }

  stop(): RssReport {
    this.sample();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const step = Math.max(1, Math.ceil(this.samples.length / 60));
    const kept = this.samples.filter((_, i) => i % step === 0 || i === this.samples.length - 1);
    const series = kept.map(([t, rss]): [number, number] => [round(t, 1), mib(rss)]);
    const anon = kept.flatMap(([t, , a]): Array<[number, number]> => (a === undefined ? [] : [[round(t, 1), mib(a)]]));
    return {
      peak_rss_mb: mib(this.peak),
      max_rss_mb: mib(process.resourceUsage().maxRSS * 1024),
      start_rss_mb: mib(this.samples[0]![1]),
      series,
      anon_series: anon.length === series.length ? anon : [],
      interval_ms: this.intervalMs,
    };
  }
}

let gcFn: (() => void) | undefined;

/** Run a full GC (enabling --expose-gc at run time when the process lacks it). */
export function forceGc(): void {
  if (!gcFn) {
    const existing = (globalThis as { gc?: () => void }).gc;
    if (existing) gcFn = existing;
    else {
      setFlagsFromString("--expose-gc");
      gcFn = runInNewContext("gc") as () => void;
    }
  }
  gcFn();
  gcFn();
}

/** Heap used and RSS after a full GC, in bytes. */
export function settledMemory(): { heap: number; rss: number } {
  forceGc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
}

/** Total size of the files at `paths` (missing files count 0). */
export function filesSize(paths: readonly string[]): number {
  let total = 0;
  for (const p of paths) {
    try {
      total += statSync(p).size;
    } catch {
      // absent (e.g. no WAL after a clean close)
    }
  }
  return total;
}

/** Total size of every file under `dir`, recursively. */
export function dirSize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    total += entry.isDirectory() ? dirSize(p) : statSync(p).size;
  }
  return total;
}

/** Round to `digits` decimals (for JSON that stays readable). */
export { round };
