import { z } from "zod";
import type { Db } from "../db/client";
import { GROUND_TRUTH_SELECT, honestResolved } from "../trajectories/score-reviewers";
import { count, number, rate, rateColumn, text, type FigureRow, type FigureTable } from "./figures";
import { dimensionFilters, groupItems, selectItems, uniqueTaskIds, type Dimensions, type Outcomes } from "./item-slices";
import { ranReproducer, type StepFacts } from "./reproducer";
import { sliceHref, type SliceParams } from "./slice-key";

// SWE-Review's measures of reviewer agents, against executed ground truth (the candidate's
// own validation run, as /reviewers scores it): accuracy, false approvals (approved, does not
// resolve) and false rejections (rejected, resolves) with their rates, what a correct decision
// costs, how often the reviewer ran a reproducer, whether its confidence is calibrated, and
// the annotated causes of its mistakes.

export type Review = {
  taskId: string;
  reviewer: string;
  generator: string;
  difficulty: string;
  repository: string;
  approved: boolean;
  /** executed ground truth: did the reviewed patch resolve the task (null: not run yet) */
  resolved: boolean | null;
  confidence: number | null;
  steps: number;
  tokens: number | null;
  costUsd: number | null;
  ranReproducer: boolean | null;
  /** the annotated cause of a wrong decision (trajectory metadata `cause`) */
  cause: string | null;
};

/** The causes a wrong decision is filed under; any other annotation counts as "other". */
export const REVIEW_CAUSES: Record<string, string> = {
  subtle_logic_bug: "subtle logic bug",
  insufficient_reproducer_coverage: "insufficient reproducer coverage",
  cross_file_reasoning_gap: "cross-file reasoning gap",
  code_misreading: "code misreading",
  other: "other",
  none: "not annotated",
};
export const causeKey = (cause: string | null) => (cause === null ? "none" : cause in REVIEW_CAUSES ? cause : "other");

export const REVIEW_DIMENSIONS: Dimensions<Review> = {
  reviewer: (r) => r.reviewer,
  generator: (r) => r.generator,
  difficulty: (r) => r.difficulty,
  repository: (r) => r.repository,
};
const DIMENSION_LABELS: Record<string, string> = { reviewer: "Reviewer model", generator: "Generator model", difficulty: "Difficulty", repository: "Repository" };

const scored = (r: Review) => r.resolved !== null;
const correct = (r: Review) => r.resolved !== null && r.approved === r.resolved;
export const CALIBRATION_BINS = 5;
/** Confidence bin 0 … BINS-1; a confidence of exactly 1 falls in the last bin. */
export const binOf = (confidence: number) => Math.min(CALIBRATION_BINS - 1, Math.floor(confidence * CALIBRATION_BINS));

export const REVIEW_OUTCOMES: Outcomes<Review> = {
  reviews: () => true,
  scored,
  correct,
  falseApproval: (r) => r.approved && r.resolved === false,
  falseRejection: (r) => !r.approved && r.resolved === true,
  awaiting: (r) => r.resolved === null,
  reproducer: (r) => r.ranReproducer === true,
  bin: (r, p) => scored(r) && r.confidence !== null && binOf(r.confidence) === Number(p.bin),
  falseApprovalCause: (r, p) => r.approved && r.resolved === false && causeKey(r.cause) === p.cause,
  falseRejectionCause: (r, p) => !r.approved && r.resolved === true && causeKey(r.cause) === p.cause,
};

const dimensionEnum = z.enum(["reviewer", "generator", "difficulty", "repository"]);
const optionalText = z.string().trim().min(1).max(300).optional();
export const ReviewerQuerySchema = z.object({
  reviewer: optionalText,
  generator: optionalText,
  difficulty: optionalText,
  repository: optionalText,
  /** "reviewer,generator": one table row per combination */
  by: z
    .string()
    .default("reviewer")
    .transform((v) => v.split(",").filter(Boolean))
    .pipe(z.array(dimensionEnum).max(4)),
});
export type ReviewerQuery = z.infer<typeof ReviewerQuerySchema>;

const sum = (values: (number | null)[]) => {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? present.reduce((a, b) => a + b, 0) : null;
};
const perCorrect = (total: number | null, correctCount: number) => (total === null ? null : rate(total, correctCount));

export type ReviewerAnalytics = { measures: FigureTable; calibration: FigureTable; causes: FigureTable; reviews: number };

/** Pure: the three tables of the page from the reviews matching the query. */
export function buildReviewerAnalytics(all: Review[], query: ReviewerQuery): ReviewerAnalytics {
  const filters = dimensionFilters(query, REVIEW_DIMENSIONS as Dimensions<unknown>);
  const reviews = selectItems(all, filters, REVIEW_DIMENSIONS, REVIEW_OUTCOMES);
  const slice = (extra: SliceParams) => sliceHref("reviewers", { ...filters, ...extra });
  const count$ = (items: Review[], outcome: string, params: SliceParams = {}) => items.filter((r) => REVIEW_OUTCOMES[outcome](r, params)).length;

  const measureRows: FigureRow[] = [];
  const measureDrill: FigureTable["drill"] = {};
  for (const group of groupItems(reviews, query.by, REVIEW_DIMENSIONS)) {
    const items = group.items;
    const scoredItems = items.filter(scored);
    const correctCount = count$(items, "correct");
    const falseApprovals = count$(items, "falseApproval");
    const falseRejections = count$(items, "falseRejection");
    const withSteps = items.filter((r) => r.ranReproducer !== null).length;
    measureRows.push({
      key: group.key,
      ...Object.fromEntries(query.by.map((d) => [d, group.values[d]])),
      reviews: items.length,
      scored: scoredItems.length,
      correct: correctCount,
      accuracy: rate(correctCount, scoredItems.length),
      falseApproval: falseApprovals,
      falseApprovalRate: rate(falseApprovals, scoredItems.filter((r) => r.resolved === false).length),
      falseRejection: falseRejections,
      falseRejectionRate: rate(falseRejections, scoredItems.filter((r) => r.resolved === true).length),
      tokensPerCorrect: perCorrect(sum(scoredItems.map((r) => r.tokens)), correctCount),
      stepsPerCorrect: perCorrect(sum(scoredItems.map((r) => r.steps)), correctCount),
      costPerCorrect: perCorrect(sum(scoredItems.map((r) => r.costUsd)), correctCount),
      reproducer: count$(items, "reproducer"),
      reproducerShare: rate(count$(items, "reproducer"), withSteps),
      awaiting: count$(items, "awaiting"),
    });
    measureDrill[group.key] = Object.fromEntries(
      ["reviews", "scored", "correct", "falseApproval", "falseRejection", "reproducer", "awaiting"].map((o) => [o, slice({ ...group.values, outcome: o })]),
    );
  }

  const calibrationRows: FigureRow[] = [];
  const calibrationDrill: FigureTable["drill"] = {};
  for (let bin = 0; bin < CALIBRATION_BINS; bin++) {
    const items = reviews.filter((r) => REVIEW_OUTCOMES.bin(r, { bin: String(bin) }));
    const key = String(bin);
    calibrationRows.push({
      key,
      bin: `${((bin / CALIBRATION_BINS) * 100).toFixed(0)}–${(((bin + 1) / CALIBRATION_BINS) * 100).toFixed(0)} %`,
      reviews: items.length,
      meanConfidence: rate(sum(items.map((r) => r.confidence)) ?? 0, items.length),
      accuracy: rate(items.filter(correct).length, items.length),
    });
    calibrationDrill[key] = { reviews: slice({ outcome: "bin", bin: key }) };
  }

  const causeRows: FigureRow[] = Object.entries(REVIEW_CAUSES).map(([cause, label]) => ({
    key: cause,
    cause: label,
    falseApproval: count$(reviews, "falseApprovalCause", { cause }),
    falseRejection: count$(reviews, "falseRejectionCause", { cause }),
  }));
  const causeDrill = Object.fromEntries(
    Object.keys(REVIEW_CAUSES).map((cause) => [
      cause,
      { falseApproval: slice({ outcome: "falseApprovalCause", cause }), falseRejection: slice({ outcome: "falseRejectionCause", cause }) },
    ]),
  );

  return {
    reviews: reviews.length,
    measures: {
      title: "Reviewer decisions against executed ground truth",
      columns: [
        ...query.by.map((d) => text(d, DIMENSION_LABELS[d])),
        count("reviews", "Reviews"),
        count("scored", "Scored"),
        count("correct", "Correct"),
        rateColumn("accuracy", "Accuracy"),
        count("falseApproval", "False approvals"),
        rateColumn("falseApprovalRate", "False-approval rate"),
        count("falseRejection", "False rejections"),
        rateColumn("falseRejectionRate", "False-rejection rate"),
        number("tokensPerCorrect", "Tokens per correct decision"),
        number("stepsPerCorrect", "Steps per correct decision"),
        number("costPerCorrect", "Cost (USD) per correct decision"),
        count("reproducer", "Ran a reproducer"),
        rateColumn("reproducerShare", "Share that ran a reproducer"),
        count("awaiting", "Awaiting ground truth"),
      ],
      rows: measureRows,
      drill: measureDrill,
    },
    calibration: {
      title: "Confidence calibration (scored reviews with a confidence)",
      columns: [text("bin", "Confidence"), count("reviews", "Reviews"), rateColumn("meanConfidence", "Mean confidence"), rateColumn("accuracy", "Accuracy")],
      rows: calibrationRows,
      drill: calibrationDrill,
    },
    causes: {
      title: "Causes of wrong decisions",
      columns: [text("cause", "Cause"), count("falseApproval", "False approvals"), count("falseRejection", "False rejections")],
      rows: causeRows,
      drill: causeDrill,
    },
  };
}

/** Every reviewer verdict with its ground truth and its facts. */
export async function loadReviews(db: Db): Promise<Review[]> {
  const rows = await db.trajectory.findMany({
    where: { role: "REVIEWER", decision: { not: null } },
    select: {
      id: true,
      taskId: true,
      model: true,
      decision: true,
      confidence: true,
      stepCount: true,
      tokensIn: true,
      tokensOut: true,
      costUsd: true,
      metadata: true,
      task: { select: { difficulty: true, environment: { select: { repository: { select: { owner: true, name: true } } } } } },
      candidatePatch: { select: { generator: true, ...GROUND_TRUTH_SELECT } },
    },
  });
  const steps = await db.$queryRaw<{ trajectoryId: string; action: string | null; kind: string | null }[]>`
    SELECT s.trajectory_id AS "trajectoryId", s.action, s.metadata->>'kind' AS kind
    FROM trajectory_steps s JOIN trajectories tr ON tr.id = s.trajectory_id
    WHERE tr.role = 'REVIEWER' AND tr.decision IS NOT NULL`;
  const stepsOf = new Map<string, StepFacts[]>();
  for (const step of steps) {
    const list = stepsOf.get(step.trajectoryId) ?? [];
    list.push(step);
    stepsOf.set(step.trajectoryId, list);
  }
  return rows
    .filter((row) => row.taskId !== null)
    .map((row) => {
      const tokens = row.tokensIn === null && row.tokensOut === null ? null : (row.tokensIn ?? 0) + (row.tokensOut ?? 0);
      const metadata = (row.metadata ?? {}) as Record<string, unknown>;
      const repository = row.task?.environment.repository;
      return {
        taskId: row.taskId!,
        reviewer: row.model ?? "unknown reviewer",
        generator: row.candidatePatch?.generator ?? "(unknown)",
        difficulty: row.task?.difficulty ?? "(none)",
        repository: repository ? `${repository.owner}/${repository.name}` : "(none)",
        approved: row.decision === "APPROVE",
        resolved: row.candidatePatch ? honestResolved(row.candidatePatch) : null,
        confidence: row.confidence,
        steps: row.stepCount,
        tokens,
        costUsd: row.costUsd,
        ranReproducer: ranReproducer(stepsOf.get(row.id) ?? []),
        cause: typeof metadata.cause === "string" ? metadata.cause : null,
      };
    });
}

export async function reviewerAnalytics(db: Db, query: ReviewerQuery) {
  return buildReviewerAnalytics(await loadReviews(db), query);
}

export async function reviewerSliceTaskIds(db: Db, params: SliceParams): Promise<string[]> {
  return uniqueTaskIds(selectItems(await loadReviews(db), params, REVIEW_DIMENSIONS, REVIEW_OUTCOMES));
}
