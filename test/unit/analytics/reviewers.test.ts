import { describe, expect, it } from "vitest";
import {
  buildReviewerAnalytics,
  REVIEW_DIMENSIONS,
  REVIEW_OUTCOMES,
  ReviewerQuerySchema,
  type Review,
} from "@/lib/analytics/reviewers";
import { selectItems } from "@/lib/analytics/item-slices";
import { decodeSlice } from "@/lib/analytics/slice-key";

const review = (
  taskId: string,
  reviewer: string,
  approved: boolean,
  resolved: boolean | null,
  extra: Partial<Review>,
): Review => ({
  taskId,
  reviewer,
  generator: "gen",
  difficulty: "EASY",
  repository: "o/r",
  approved,
  resolved,
  confidence: null,
  steps: 0,
  tokens: null,
  costUsd: null,
  ranReproducer: null,
  cause: null,
  ...extra,
});

// Reviewer A: right on R1 and R3, a false approval on R2, R4 awaits its ground truth.
// Reviewer B: a false rejection on R5, right on R6.
const REVIEWS = [
  review("t1", "A", true, true, { confidence: 0.9, steps: 10, tokens: 1000, costUsd: 0.1, ranReproducer: true }),
  review("t2", "A", true, false, {
    confidence: 0.7,
    steps: 6,
    tokens: 600,
    costUsd: 0.06,
    ranReproducer: false,
    cause: "subtle_logic_bug",
  }),
  review("t3", "A", false, false, { confidence: 0.5, steps: 4, tokens: 400, costUsd: 0.04, ranReproducer: true }),
  review("t4", "A", false, null, { confidence: 0.8, steps: 2, tokens: 200 }),
  review("t5", "B", false, true, {
    confidence: 0.95,
    steps: 8,
    tokens: 800,
    ranReproducer: true,
    cause: "code_misreading",
  }),
  review("t6", "B", true, true, { confidence: 0.3, steps: 5, ranReproducer: false }),
];

describe("reviewer analytics", () => {
  const result = buildReviewerAnalytics(REVIEWS, ReviewerQuerySchema.parse({}));
  const row = (key: string) => result.measures.rows.find((r) => r.key === key)!;

  it("scores decisions against ground truth with rates over the right denominators", () => {
    expect(row("A")).toMatchObject({
      reviews: 4,
      scored: 3,
      correct: 2,
      falseApproval: 1,
      falseApprovalRate: 0.5,
      falseRejection: 0,
      falseRejectionRate: 0,
      awaiting: 1,
    });
    expect(row("A").accuracy).toBeCloseTo(2 / 3);
    // B reviewed no patch that fails: its false-approval rate is undefined, not 0
    expect(row("B")).toMatchObject({
      reviews: 2,
      scored: 2,
      correct: 1,
      accuracy: 0.5,
      falseApproval: 0,
      falseApprovalRate: null,
      falseRejection: 1,
      falseRejectionRate: 0.5,
    });
  });

  it("divides tokens, steps and cost of the scored reviews by the correct decisions", () => {
    expect(row("A")).toMatchObject({ tokensPerCorrect: 1000, stepsPerCorrect: 10 });
    expect(row("A").costPerCorrect).toBeCloseTo(0.1);
    expect(row("B")).toMatchObject({ tokensPerCorrect: 800, stepsPerCorrect: 13, costPerCorrect: null });
  });

  it("shares of reviews that ran a reproducer count only reviews with recorded steps", () => {
    expect(row("A").reproducer).toBe(2);
    expect(row("A").reproducerShare).toBeCloseTo(2 / 3);
    expect(row("B").reproducerShare).toBe(0.5);
  });

  it("bins confidence for the reliability diagram", () => {
    const bins = result.calibration.rows;
    expect(bins.map((b) => b.reviews)).toEqual([0, 1, 1, 1, 2]);
    expect(bins[4].meanConfidence).toBeCloseTo(0.925);
    expect(bins.map((b) => b.accuracy)).toEqual([null, 1, 1, 0, 0.5]);
  });

  it("counts the causes of false approvals and false rejections", () => {
    const cause = (key: string) => result.causes.rows.find((r) => r.key === key)!;
    expect(cause("subtle_logic_bug")).toMatchObject({ falseApproval: 1, falseRejection: 0 });
    expect(cause("code_misreading")).toMatchObject({ falseApproval: 0, falseRejection: 1 });
  });

  it("a number's link selects exactly the reviews it counted", () => {
    const slice = decodeSlice(new URL(result.measures.drill.A.falseApproval, "http://x").searchParams.get("slice")!)!;
    expect(selectItems(REVIEWS, slice.params, REVIEW_DIMENSIONS, REVIEW_OUTCOMES).map((r) => r.taskId)).toEqual(["t2"]);
    const bin = decodeSlice(new URL(result.calibration.drill["4"].reviews, "http://x").searchParams.get("slice")!)!;
    expect(selectItems(REVIEWS, bin.params, REVIEW_DIMENSIONS, REVIEW_OUTCOMES).map((r) => r.taskId)).toEqual([
      "t1",
      "t5",
    ]);
  });

  it("groups by reviewer × generator and filters by a dimension", () => {
    const crossed = buildReviewerAnalytics(
      REVIEWS,
      ReviewerQuerySchema.parse({ by: "reviewer,generator", reviewer: "B" }),
    );
    expect(crossed.measures.rows.map((r) => r.key)).toEqual(["B × gen"]);
    expect(crossed.reviews).toBe(2);
  });
});
