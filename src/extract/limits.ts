/**
 * The budgets one extraction may spend (docs/decisions/0007-extraction-limits.md).
 *
 * Extraction runs hostile bytes through large parsers, so every run is bounded:
 * wall-clock time and memory by the extraction worker (extraction-pool.ts), the
 * length of the text by the extractors themselves. Crossing any bound is the
 * named refusal `EXTRACTION_LIMIT`, never a hang, a crash or a frozen server.
 * A limit only ever decides *whether* a text is produced, never *which* text:
 * output under the limits is identical to unlimited output.
 */
import { GroundkitError } from "../core/errors.js";

/** Budgets for one extraction. */
export interface ExtractionLimits {
  /** Wall-clock time for one file, in ms, measured in the worker from the job's start. */
  timeoutMs: number;
  /**
   * Memory for one file, in MiB: the worker's JavaScript heap, and the growth of
   * the process's resident memory while the file is extracted (decoded PDF streams
   * live outside the heap).
   */
  maxMemoryMb: number;
  /** Longest extracted text, in Unicode code points. */
  maxOutputCodePoints: number;
}

/** The defaults: 30 s, 512 MiB, 64 Mi code points (about 6x what a 10 MiB file of text holds). */
export const DEFAULT_EXTRACTION_LIMITS: Readonly<ExtractionLimits> = Object.freeze({
  timeoutMs: 30_000,
  maxMemoryMb: 512,
  maxOutputCodePoints: 64 * 1024 * 1024,
});

/** Which budget an `EXTRACTION_LIMIT` refusal ran out of. */
export type ExtractionLimitKind = "time" | "memory" | "output" | "nesting" | "entries" | "part-size" | "compression-ratio";

const BOUNDS: Readonly<Record<keyof ExtractionLimits, [number, number]>> = {
  timeoutMs: [1, 24 * 60 * 60 * 1000],
  // Below 32 MiB the PDF library cannot even load.
  maxMemoryMb: [32, 1024 * 1024],
  maxOutputCodePoints: [1, 2 ** 40],
};

/**
 * Complete `partial` with the defaults, refusing values out of range.
 *
 * @example
 *   resolveExtractionLimits({ timeoutMs: 5000 }) // { timeoutMs: 5000, maxMemoryMb: 512, maxOutputCodePoints: 67108864 }
 * @throws GroundkitError INVALID_CONFIG naming the limit.
 */
export function resolveExtractionLimits(partial: Partial<ExtractionLimits> | undefined): ExtractionLimits {
  const limits = { ...DEFAULT_EXTRACTION_LIMITS };
  for (const key of Object.keys(BOUNDS) as (keyof ExtractionLimits)[]) {
    const value = partial?.[key];
    if (value === undefined) continue;
    const [min, max] = BOUNDS[key];
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new GroundkitError("INVALID_CONFIG", `The extraction limit ${key} must be an integer from ${min} to ${max}; got ${value}.`);
    }
    limits[key] = value;
  }
  return limits;
}

/**
 * The refusal for one exhausted budget. `what` completes "The extraction of <label> …".
 *
 * @example
 *   throw extractionLimit("time", "stopped after 30000 ms (the time limit)", "docs/a.pdf", { timeoutMs: 30000 });
 */
export function extractionLimit(
  limit: ExtractionLimitKind,
  what: string,
  label: string | undefined,
  detail: Record<string, unknown> = {},
): GroundkitError {
  const subject = label === undefined ? "The extraction" : `The extraction of ${label}`;
  return new GroundkitError("EXTRACTION_LIMIT", `${subject} ${what}.`, { limit, ...detail });
}

/**
 * Refuse a text of `length` code points when it is over `max`.
 *
 * @throws GroundkitError `EXTRACTION_LIMIT` (limit "output").
 */
export function checkOutputLength(length: number, max: number, label: string | undefined): void {
  if (length <= max) return;
  throw extractionLimit("output", `stopped: the text is longer than ${max} code points (the output limit)`, label, {
    maxOutputCodePoints: max,
  });
}
