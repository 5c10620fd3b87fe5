/** Binary searches over sorted number arrays (break points, page starts, line starts). */

/** Index of the last element <= x in a sorted array, or -1. */
export function lastAtMost(arr: readonly number[], x: number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((arr[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Index of the first element >= x in a sorted array, or arr.length. */
export function firstAtLeast(arr: readonly number[], x: number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((arr[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
