/**
 * Redaction against the corpus of secret shapes (issue 25 #5): every example of
 * every family is withheld, look-alikes stay as they are, and every counted
 * redaction removed something (counts equal the placeholders written).
 */
import { describe, expect, it } from "vitest";
import { evaluateRedaction, loadShapeCorpus, renderRedactionReport } from "../evals/redaction-eval.js";

describe("the secret-shape corpus", () => {
  it.each([1, 2, 3])("withholds every example and changes no look-alike (seed %i)", (seed) => {
    const report = evaluateRedaction(loadShapeCorpus(), seed);
    console.log(renderRedactionReport(report));
    expect(report.examples).toBeGreaterThanOrEqual(90);
    expect(report.misses).toEqual([]);
    expect(report.miscounted).toBe(0);
    expect(report.false_positives).toEqual([]);
  });
});
