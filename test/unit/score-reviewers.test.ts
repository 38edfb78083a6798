import { describe, expect, it } from "vitest";
import { honestResolved, scoreVerdicts, type Verdict } from "../../lib/trajectories/score-reviewers";

const v = (
  reviewer: string,
  approved: boolean,
  resolved: boolean | null,
  confidence: number | null = null,
): Verdict => ({ reviewer, approved, resolved, confidence });

describe("scoring reviewer verdicts against executed ground truth", () => {
  it("counts a reviewer's approvals and rejections against whether the patch resolved the task", () => {
    // hand-computed: TP 2, FP 1 (approved a non-fix), TN 1, FN 1; accuracy 3/5, precision 2/3, recall 2/3
    const [score] = scoreVerdicts([
      v("gpt", true, true),
      v("gpt", true, true),
      v("gpt", true, false),
      v("gpt", false, false),
      v("gpt", false, true),
      v("gpt", true, null),
    ]);
    expect(score).toMatchObject({
      reviewer: "gpt",
      truePositive: 2,
      falsePositive: 1,
      trueNegative: 1,
      falseNegative: 1,
      scored: 5,
      awaitingGroundTruth: 1,
    });
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

describe("the ground truth a reviewer is scored against", () => {
  const testPatch =
    "diff --git a/tests/test_ops.py b/tests/test_ops.py\n--- a/tests/test_ops.py\n+++ b/tests/test_ops.py\n@@ -1 +1,2 @@\n x\n+y\n";
  const fix = "diff --git a/calc/ops.py b/calc/ops.py\n--- a/calc/ops.py\n+++ b/calc/ops.py\n@@ -1 +1 @@\n-a\n+b\n";
  const conftest =
    "diff --git a/conftest.py b/conftest.py\nnew file mode 100644\n--- /dev/null\n+++ b/conftest.py\n@@ -0,0 +1 @@\n+x\n";
  const candidate = (
    patch: string,
    runs: Array<{ resolved: boolean | null; importBatchId: string | null }>,
    resolved: boolean | null = runs[0]?.resolved ?? null,
  ) => ({
    resolved,
    patch,
    task: { testPatch, environment: { currentRevision: { evalScript: "pytest tests" } } },
    validationRuns: runs,
  });

  it("is our latest run's result, whatever the patch touches", () => {
    expect(honestResolved(candidate(fix + conftest, [{ resolved: false, importBatchId: null }]))).toBe(false);
  });

  it("believes an imported result only for a patch that leaves the tests alone", () => {
    expect(honestResolved(candidate(fix, [{ resolved: true, importBatchId: "batch" }]))).toBe(true);
    expect(honestResolved(candidate(fix + conftest, [{ resolved: true, importBatchId: "batch" }]))).toBeNull();
    expect(honestResolved(candidate(fix + conftest, [], true))).toBeNull();
  });
});
