/**
 * A seeded random generator: the bootstrap, the bench and the fuzz replay the
 * same sequence from the same seed, on every platform.
 */

/**
 * mulberry32: a small, fast 32-bit PRNG returning floats in [0, 1). Same seed, same sequence.
 *
 * @example
 *   const rand = mulberry32(42); rand(); // 0.6011037519...
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
