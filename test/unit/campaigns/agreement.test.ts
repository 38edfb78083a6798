import { describe, expect, it } from "vitest";
import { krippendorffAlpha } from "../../../lib/metrics/krippendorff-alpha";
import { cohenKappa, weightedCohenKappa } from "../../../lib/metrics/kappa";
import {
  agreementWithOthers,
  bootstrapInterval,
  disagreementSpread,
  goldAccuracy,
  median,
  questionAgreement,
  type SubmittedLabel,
} from "../../../lib/campaigns/agreement";
import { DEFAULT_RUBRIC_QUESTIONS } from "../../../lib/campaigns/rubric";

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", example C: four observers,
// twelve units, values 1–5, missing values (null). Published: nominal .743, ordinal .815, interval .849.
const OBSERVERS: (number | null)[][] = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
];
const UNITS = OBSERVERS[0].map((_, u) => OBSERVERS.map((o) => o[u]).filter((v): v is number => v !== null));

describe("Krippendorff's alpha", () => {
  it("equals Krippendorff's own worked example at every level", () => {
    expect(krippendorffAlpha(UNITS, "nominal").alpha).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(UNITS, "ordinal").alpha).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(UNITS, "interval").alpha).toBeCloseTo(0.849, 3);
    // unit 12 has one value: it is not pairable
    expect(krippendorffAlpha(UNITS, "nominal").pairable).toBe(11);
  });

  it("is 1 for perfect agreement and undefined when every value is the same", () => {
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [2, 2],
          [3, 3, 3],
        ],
        "ordinal",
      ).alpha,
    ).toBe(1);
    expect(
      krippendorffAlpha(
        [
          [2, 2],
          [2, 2],
        ],
        "nominal",
      ).alpha,
    ).toBeNull();
  });
});

describe("weighted Cohen's kappa", () => {
  // Artstein & Poesio's three-category example, as scikit-learn's test suite checks it:
  // 46 (0,0), 4 (1,0), 40 (1,1), 10 (2,2) → kappa .9315, linear .9412, quadratic .9541.
  const a = [...Array(46).fill(0), ...Array(44).fill(1), ...Array(10).fill(2)];
  const b = [...Array(50).fill(0), ...Array(40).fill(1), ...Array(10).fill(2)];
  it("equals the textbook figures with no, linear and quadratic weights", () => {
    expect(cohenKappa(a.map(String), b.map(String)).kappa).toBeCloseTo(0.9315, 4);
    expect(weightedCohenKappa(a, b, "linear").kappa).toBeCloseTo(0.9412, 4);
    expect(weightedCohenKappa(a, b, "quadratic").kappa).toBeCloseTo(0.9541, 4);
  });

  it("counts the distance over the whole scale, including levels nobody used", () => {
    // by hand: observed cost (9 + 9)/2 = 9; expected: p = q = (.5,0,0,.5) → 2·.25·9 = 4.5 → kappa 1 − 9/4.5 = −1
    expect(weightedCohenKappa([0, 3], [3, 0], "quadratic", [0, 1, 2, 3]).kappa).toBeCloseTo(-1, 6);
    expect(weightedCohenKappa([0, 3], [0, 3], "quadratic", [0, 1, 2, 3]).kappa).toBe(1);
  });
});

const question = (key: string) => DEFAULT_RUBRIC_QUESTIONS.find((q) => q.key === key)!;
const label = (
  taskId: string,
  annotatorId: string,
  answers: SubmittedLabel["answers"],
  minutes = 5,
): SubmittedLabel => ({
  taskId,
  annotatorId,
  answers,
  openedAt: new Date(0),
  submittedAt: new Date(minutes * 60_000),
});

describe("campaign agreement per question", () => {
  const labels = [
    label("t1", "ann", { underspecified: 0, major_issue: false }),
    label("t1", "bob", { underspecified: 0, major_issue: false }),
    label("t1", "cid", { underspecified: 1, major_issue: false }),
    label("t2", "ann", { underspecified: 2, major_issue: true }),
    label("t2", "bob", { underspecified: 3, major_issue: true }),
    label("t2", "cid", { underspecified: 2, major_issue: false }),
    label("t3", "ann", { underspecified: 1, major_issue: false }),
    label("t3", "bob", { underspecified: 1, major_issue: false }),
    label("t3", "cid", { underspecified: 0, major_issue: false }),
  ];

  it("reports alpha, quadratic-weighted kappa per pair with an interval, and the distribution", () => {
    const report = questionAgreement(question("underspecified"), labels, ["ann", "bob", "cid"]);
    expect(report.level).toBe("ordinal");
    expect(report.alpha).toBeCloseTo(
      krippendorffAlpha(
        [
          [0, 0, 1],
          [2, 3, 2],
          [1, 1, 0],
        ],
        "ordinal",
      ).alpha!,
      10,
    );
    expect(report.pairs.map((p) => `${p.annotatorA}-${p.annotatorB}`)).toEqual(["ann-bob", "ann-cid", "bob-cid"]);
    // ann (0,2,1) vs bob (0,3,1): observed cost 1/3; p=(1/3,1/3,1/3,0) q=(1/3,1/3,0,1/3);
    // expected = Σ p_i q_j (i-j)² = (0+1+9 + 1+0+4 + 4+1+1)/9 = 21/9 → kappa = 1 − (1/3)/(21/9) = 6/7
    expect(report.pairs[0].kappa).toBeCloseTo(6 / 7, 10);
    expect(report.pairs[0].weights).toBe("quadratic");
    const [lo, hi] = report.pairs[0].interval!;
    expect(lo).toBeLessThanOrEqual(report.pairs[0].kappa!);
    expect(hi).toBeGreaterThanOrEqual(lo);
    expect(report.distribution.map((d) => d.count)).toEqual([3, 3, 2, 1]);
    const yesNo = questionAgreement(question("major_issue"), labels, ["ann", "bob", "cid"]);
    expect(yesNo.level).toBe("nominal");
    expect(yesNo.distribution).toEqual([
      { value: "true", label: "Yes", count: 2 },
      { value: "false", label: "No", count: 7 },
    ]);
  });

  it("ranks disagreement by spread and scores each annotator against the others and the gold set", () => {
    const questions = [question("underspecified"), question("major_issue")];
    // t2: underspecified 2..3 over a 0..3 scale = 1/3, major issue differs = 1
    expect(
      disagreementSpread(
        questions,
        labels.filter((l) => l.taskId === "t2").map((l) => l.answers),
      ),
    ).toEqual({ spread: 1.333, questions: ["underspecified", "major_issue"] });
    // cid against ann and bob, by hand: t1 scale 0/2, yes-no 2/2; t2 1/2, 0/2; t3 0/2, 2/2 → 5 of 12
    expect(agreementWithOthers(questions, labels, "cid")).toEqual({ rate: 5 / 12, comparisons: 12 });
    expect(
      goldAccuracy(questions, [
        { answers: { underspecified: 1, major_issue: false }, reference: { underspecified: 1, major_issue: true } },
      ]),
    ).toEqual({ accuracy: 0.5, checked: 2 });
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("gives a reproducible bootstrap interval and none for a single item", () => {
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(bootstrapInterval([1, 2, 3, 4], mean)).toEqual(bootstrapInterval([1, 2, 3, 4], mean));
    expect(bootstrapInterval([1], mean)).toBeNull();
  });
});
