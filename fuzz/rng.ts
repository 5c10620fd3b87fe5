/**
 * Seeded randomness for the reliability tools: every random choice of a run
 * comes from one of these, so a seed (and a case index) reproduces it exactly.
 */
import { mulberry32 } from "../src/core/random.js";

/** Mix integers into one 32-bit seed (a run seed and a case index give a case seed). */
export function mixSeed(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    let x = part >>> 0;
    for (let i = 0; i < 4; i++) {
      h ^= x & 0xff;
      h = Math.imul(h, 0x01000193) >>> 0;
      x >>>= 8;
    }
  }
  // Final avalanche so neighbouring case indexes get unrelated streams.
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d) >>> 0;
  h ^= h >>> 15;
  return h >>> 0;
}

/**
 * A small deterministic random source.
 *
 * @example
 *   const rng = new Rng(42);
 *   rng.int(0, 10); // 0..9
 */
export class Rng {
  private readonly next: () => number;

  constructor(readonly seed: number) {
    this.next = mulberry32(seed);
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next();
  }

  /** Uniform integer in [lo, hi). Returns `lo` when the range is empty. */
  int(lo: number, hi: number): number {
    if (hi <= lo) return lo;
    return lo + Math.floor(this.next() * (hi - lo));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("Rng.pick on an empty array");
    return items[this.int(0, items.length)]!;
  }

  /** A child stream that does not disturb this one's sequence beyond one draw. */
  fork(): Rng {
    return new Rng(mixSeed(this.seed, Math.floor(this.next() * 0xffffffff)));
  }
}
