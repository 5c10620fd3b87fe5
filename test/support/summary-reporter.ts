/**
 * Prints the plain closing line "tests: N passed, N failed[, N skipped]" that CI
 * tooling reads, after vitest's own summary.
 *
 * A suite that fails outside its tests (a failing `beforeAll`, an import
 * error) leaves its tests "skipped"; it counts as one failure, so the closing
 * line never reads "0 failed" for a red run.
 */
import type { Reporter, TestModule } from "vitest/node";

export interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/** Count tests by state, counting each suite that failed with no failed test as one failure. */
export function countRun(testModules: ReadonlyArray<TestModule>, unhandledErrors = 0): RunCounts {
  const counts: RunCounts = { passed: 0, failed: 0, skipped: 0 };
  for (const mod of testModules) {
    let failedHere = 0;
    for (const test of mod.children.allTests()) {
      const state = test.result().state;
      if (state === "passed") counts.passed++;
      else if (state === "failed") failedHere++;
      else counts.skipped++;
    }
    if (failedHere === 0 && mod.state() === "failed") failedHere = 1;
    counts.failed += failedHere;
  }
  counts.failed += unhandledErrors;
  return counts;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const { passed, failed, skipped } = countRun(testModules, unhandledErrors.length);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
