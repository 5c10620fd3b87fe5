/**
 * The claim-check evaluation (issue 25 #8) over the golden corpus: mutated
 * sentences (a number, a negation, a name, a unit changed) are flagged, kept
 * and paraphrased ones are not. The run is seeded, so the rates are fixed for
 * a given corpus and checker; the bounds sit a little under the measured ones.
 */
import { describe, expect, it } from "vitest";
import { evaluateClaims, goldenCorpusDir, renderClaimReport } from "../evals/claim-check-eval.js";

describe("claim-check evaluation", () => {
  it("detects most mutations and rarely flags a true sentence (seed 1)", () => {
    const r = evaluateClaims(goldenCorpusDir(), 1);
    console.log(renderClaimReport(r));
    expect(r.sentences).toBeGreaterThan(300);
    expect(r.detection_rate).toBeGreaterThanOrEqual(0.8);
    expect(r.mutated.number.rate).toBeGreaterThanOrEqual(0.7);
    expect(r.mutated.negation.rate).toBeGreaterThanOrEqual(0.8);
    expect(r.mutated.entity.rate).toBeGreaterThanOrEqual(0.7);
    expect(r.mutated.unit.rate).toBeGreaterThanOrEqual(0.8);
    expect(r.false_alarm_rate).toBeLessThanOrEqual(0.02);
  });
});
