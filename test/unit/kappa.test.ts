import { describe, expect, it } from "vitest";
import { cohenKappa, fleissKappa, describeKappa } from "@/lib/metrics/kappa";
import { computeAgreement, type DecisionForAgreement } from "@/lib/metrics/curator-agreement";

describe("Cohen's kappa", () => {
  it("matches a hand-computed example with three verdicts", () => {
    // 7 of 10 agree (po = 0.7); marginals A = B = {AP 5, RE 3, NC 2} → pe = .25 + .09 + .04 = .38
    const a = ["AP", "AP", "AP", "AP", "RE", "RE", "RE", "NC", "NC", "AP"];
    const b = ["AP", "AP", "AP", "RE", "RE", "RE", "NC", "NC", "AP", "AP"];
    const result = cohenKappa(a, b);
    expect(result.observed).toBeCloseTo(0.7, 10);
    expect(result.expected).toBeCloseTo(0.38, 10);
    expect(result.kappa).toBeCloseTo(0.32 / 0.62, 10);
  });

  it("is 1 for perfect agreement, negative below chance, undefined when chance is perfect", () => {
    expect(cohenKappa(["x", "y"], ["x", "y"]).kappa).toBe(1);
    expect(cohenKappa(["x", "y"], ["y", "x"]).kappa).toBe(-1);
    expect(cohenKappa(["x", "x"], ["x", "x"]).kappa).toBeNull();
  });
});

describe("Fleiss' kappa", () => {
  it("matches the classic 10 subjects × 14 raters example (κ ≈ 0.210)", () => {
    const counts = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    const result = fleissKappa(counts);
    expect(result.observed).toBeCloseTo(0.378, 3);
    expect(result.expected).toBeCloseTo(0.213, 3);
    expect(result.kappa).toBeCloseTo(0.21, 3);
  });

  it("equals Cohen's kappa's observed agreement for two raters and skips items rated once", () => {
    const result = fleissKappa([
      [2, 0],
      [0, 2],
      [1, 1],
      [1, 0],
    ]);
    expect(result.items).toBe(3);
    expect(result.observed).toBeCloseTo(2 / 3, 10);
  });
});

describe("curator agreement", () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
  const d = (
    taskId: string,
    curatorId: string,
    verdict: DecisionForAgreement["verdict"],
    minute: number,
    reasons: string[] = [],
  ) => ({ taskId, curatorId, verdict, reasons, createdAt: at(minute) }) satisfies DecisionForAgreement;

  it("uses each curator's latest decision and lists disagreements", () => {
    // hand-computed: a = [AP, RE, AP, AP], b = [AP, RE, RE, AP]; po = 3/4, pe = .75·.5 + .25·.5 = .5 → κ = .5
    const decisions = [
      d("t1", "a", "APPROVE", 1),
      d("t1", "b", "APPROVE", 2),
      d("t2", "a", "REJECT", 1, ["TRIVIAL"]),
      d("t2", "b", "REJECT", 2, ["TRIVIAL"]),
      d("t3", "a", "REJECT", 1),
      d("t3", "a", "APPROVE", 5),
      d("t3", "b", "REJECT", 2, ["FLAKY"]),
      d("t4", "a", "APPROVE", 1),
      d("t4", "b", "APPROVE", 2),
      d("t5", "a", "APPROVE", 1),
    ];
    const report = computeAgreement(decisions, ["TRIVIAL", "FLAKY"]);
    expect(report.tasksWithSeveralCurators).toBe(4);
    expect(report.pairs).toHaveLength(1);
    expect(report.pairs[0].kappa).toBeCloseTo(0.5, 10);
    expect(report.disagreements.map((x) => x.taskId)).toEqual(["t3"]);
    const trivial = report.reasons.find((r) => r.reason === "TRIVIAL")!;
    expect(trivial.timesUsed).toBe(2);
    expect(trivial.kappa).toBe(1);
    expect(describeKappa(0.5)).toBe("moderate");
  });
});
