import { describe, expect, it } from "vitest";
import { scoreVerdicts, type Verdict } from "../../lib/trajectories/score-reviewers";

const v = (reviewer: string, approved: boolean, resolved: boolean | null, confidence: number | null = null): Verdict => ({ reviewer, approved, resolved, confidence });

describe("scoring reviewer verdicts against executed ground truth", () => {
  it("counts a reviewer's approvals and rejections against whether the patch resolved the task", () => {
    // hand-computed: TP 2, FP 1 (approved a non-fix), TN 1, FN 1; accuracy 3/5, precision 2/3, recall 2/3
    const [score] = scoreVerdicts([v("gpt", true, true), v("gpt", true, true), v("gpt", true, false), v("gpt", false, false), v("gpt", false, true), v("gpt", true, null)]);
    expect(score).toMatchObject({ reviewer: "gpt", truePositive: 2, falsePositive: 1, trueNegative: 1, falseNegative: 1, scored: 5, awaitingGroundTruth: 1 });
    expect(score.accuracy).toBeCloseTo(0.6);
    expect(score.precision).toBeCloseTo(2 / 3);
    expect(score.recall).toBeCloseTo(2 / 3);
    expect(score.f1).toBeCloseTo(2 / 3);
  });

  it("says when a reviewer's confidence tells right from wrong", () => {
    const [score] = scoreVerdicts([v("r", true, true, 0.9), v("r", false, false, 0.8), v("r", true, false, 0.3)]);
    expect(score.confidenceGap).toBeCloseTo(0.85 - 0.3);
  });

  it("leaves ratios empty rather than dividing by zero when nothing is validated yet", () => {
    const [score] = scoreVerdicts([v("new", true, null)]);
    expect(score).toMatchObject({ scored: 0, accuracy: null, precision: null, recall: null, f1: null });
  });
});
