/** "Did you mean …": the known name nearest a mistyped one. */

/**
 * The candidate nearest `name` by edit distance (case-insensitive, a swap of two
 * neighbours counts once), when it is near enough to be a typo: at most a third of
 * the longer name's length, at least 1, at most 3. Ties go to the first in sorted order.
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const c of [...candidates].sort()) {
    if (c === name) continue;
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    const limit = Math.min(3, Math.max(1, Math.floor(Math.max(name.length, c.length) / 3)));
    if (d <= limit && (best === undefined || d < best.distance)) best = { name: c, distance: d };
  }
  return best?.name;
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = v;
    }
  }
  return d[rows * cols - 1]!;
}
