import { z } from "zod";
import type { Db } from "../db/client";
import { honestResolved } from "../trajectories/score-reviewers";
import { EMPTY, sql } from "../db/sql";
import {
  count,
  number,
  percentColumn,
  rate,
  rateCells,
  rateColumn,
  text,
  type FigureRow,
  type FigureTable,
} from "./figures";
import { labelOrMissing } from "../metrics/missing-label";
import {
  dimensionFilters,
  groupItems,
  selectItems,
  uniqueTaskIds,
  type Dimensions,
  type Outcomes,
} from "./item-slices";
import { sliceHref, type SliceParams } from "./slice-key";
import { buildRevisionLoop, loadRevisionPairs, REVISION_DIMENSIONS } from "./revisions";
import { visibleOnly, type BlindSet } from "../auth/blind";
import { byCodePoints, cachedFacts, type FactSource } from "./fact-cache";

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
const DIMENSION_LABELS: Record<string, string> = {
  reviewer: "Reviewer model",
  generator: "Generator model",
  difficulty: "Difficulty",
  repository: "Repository",
};

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

export type ReviewerAnalytics = {
  measures: FigureTable;
  calibration: FigureTable;
  causes: FigureTable;
  reviews: number;
};

/** Pure: the three tables of the page from the reviews matching the query. */
export function buildReviewerAnalytics(all: Review[], query: ReviewerQuery): ReviewerAnalytics {
  const filters = dimensionFilters(query, REVIEW_DIMENSIONS as Dimensions<unknown>);
  const reviews = selectItems(all, filters, REVIEW_DIMENSIONS, REVIEW_OUTCOMES);
  const slice = (extra: SliceParams) => sliceHref("reviewers", { ...filters, ...extra });
  const count$ = (items: Review[], outcome: string, params: SliceParams = {}) =>
    items.filter((r) => REVIEW_OUTCOMES[outcome](r, params)).length;

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
      ...rateCells("accuracy", correctCount, scoredItems.length),
      falseApproval: falseApprovals,
      ...rateCells("falseApprovalRate", falseApprovals, scoredItems.filter((r) => r.resolved === false).length),
      falseRejection: falseRejections,
      ...rateCells("falseRejectionRate", falseRejections, scoredItems.filter((r) => r.resolved === true).length),
      tokensPerCorrect: perCorrect(sum(scoredItems.map((r) => r.tokens)), correctCount),
      stepsPerCorrect: perCorrect(sum(scoredItems.map((r) => r.steps)), correctCount),
      costPerCorrect: perCorrect(sum(scoredItems.map((r) => r.costUsd)), correctCount),
      reproducer: count$(items, "reproducer"),
      ...rateCells("reproducerShare", count$(items, "reproducer"), withSteps),
      awaiting: count$(items, "awaiting"),
    });
    measureDrill[group.key] = Object.fromEntries(
      ["reviews", "scored", "correct", "falseApproval", "falseRejection", "reproducer", "awaiting"].map((o) => [
        o,
        slice({ ...group.values, outcome: o }),
      ]),
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
      ...rateCells("accuracy", items.filter(correct).length, items.length),
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
      {
        falseApproval: slice({ outcome: "falseApprovalCause", cause }),
        falseRejection: slice({ outcome: "falseRejectionCause", cause }),
      },
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
      columns: [
        text("bin", "Confidence"),
        count("reviews", "Reviews"),
        percentColumn("meanConfidence", "Mean confidence"),
        rateColumn("accuracy", "Accuracy"),
      ],
      rows: calibrationRows,
      drill: calibrationDrill,
    },
    causes: {
      title: "Causes of wrong decisions",
      columns: [
        text("cause", "Cause"),
        count("falseApproval", "False approvals"),
        count("falseRejection", "False rejections"),
      ],
      rows: causeRows,
      drill: causeDrill,
    },
  };
}

type ReviewRow = {
  taskId: string;
  model: string | null;
  decision: string;
  confidence: number | null;
  steps: number;
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
  cause: string | null;
  generator: string | null;
  difficulty: string | null;
  repository: string | null;
  hasCandidate: boolean;
  candidateResolved: boolean | null;
  latestResolved: boolean | null;
  latestImportBatchId: string | null;
  hasLatest: boolean;
  patch: string | null;
  testPatch: string | null;
  evalScript: string | null;
  ranReproducer: boolean | null;
};

/**
 * One statement: each verdict with its dimensions, its candidate's latest deciding run (as
 * GROUND_TRUTH_SELECT reads it) and whether it ran a reproducer (decided on import). With `tasks`,
 * the verdicts on those tasks only, and the latest runs are sorted for their candidates only. The
 * patch texts the test-file guard reads travel only for the candidates honestResolved guards (no
 * run of ours decided them), so ground truth stays in one place without shipping every patch.
 */
export const reviewsSqlFor = (tasks?: string[]) => sql`
  SELECT tr.task_id AS "taskId", tr.model, tr.decision::text AS decision, tr.confidence, tr.step_count AS steps,
         tr.tokens_in AS "tokensIn", tr.tokens_out AS "tokensOut", tr.cost_usd AS "costUsd",
         CASE WHEN jsonb_typeof(tr.metadata->'cause') = 'string' THEN tr.metadata->>'cause' END AS cause,
         c.generator, t.difficulty::text AS difficulty, r.owner || '/' || r.name AS repository,
         c.id IS NOT NULL AS "hasCandidate", c.resolved AS "candidateResolved",
         latest.resolved AS "latestResolved", latest.import_batch_id AS "latestImportBatchId", latest.id IS NOT NULL AS "hasLatest",
         CASE WHEN latest.id IS NULL OR latest.import_batch_id IS NOT NULL THEN c.patch END AS patch,
         CASE WHEN latest.id IS NULL OR latest.import_batch_id IS NOT NULL THEN ct.test_patch END AS "testPatch",
         CASE WHEN latest.id IS NULL OR latest.import_batch_id IS NOT NULL THEN cr.eval_script END AS "evalScript",
         tr.ran_reproducer AS "ranReproducer"
  FROM trajectories tr
  LEFT JOIN tasks t ON t.id = tr.task_id
  LEFT JOIN environments e ON e.id = t.environment_id
  LEFT JOIN repositories r ON r.id = e.repository_id
  LEFT JOIN candidate_patches c ON c.id = tr.candidate_patch_id
  LEFT JOIN tasks ct ON ct.id = c.task_id
  LEFT JOIN environments ce ON ce.id = ct.environment_id
  LEFT JOIN environment_revisions cr ON cr.id = ce.current_revision_id
  LEFT JOIN (SELECT DISTINCT ON (v.candidate_patch_id) v.candidate_patch_id, v.id, v.resolved, v.import_batch_id FROM validation_runs v
    WHERE v.candidate_patch_id IS NOT NULL AND v.status = 'SUCCEEDED' AND v.resolved IS NOT NULL
      ${tasks ? sql`AND v.candidate_patch_id IN (SELECT candidate_patch_id FROM trajectories WHERE task_id = ANY(${tasks}::text[]))` : EMPTY}
    ORDER BY v.candidate_patch_id, v.finished_at DESC, v.id) latest ON latest.candidate_patch_id = c.id
  WHERE tr.role = 'REVIEWER' AND tr.decision IS NOT NULL AND tr.task_id IS NOT NULL
    ${tasks ? sql`AND tr.task_id = ANY(${tasks}::text[])` : EMPTY}
  ORDER BY tr.task_id COLLATE "C", tr.id COLLATE "C"`;

function groundTruth(row: ReviewRow): boolean | null {
  if (!row.hasCandidate) return null;
  return honestResolved({
    resolved: row.candidateResolved,
    patch: row.patch ?? "",
    task: {
      testPatch: row.testPatch ?? "",
      environment: { currentRevision: row.evalScript === null ? null : { evalScript: row.evalScript } },
    },
    validationRuns: row.hasLatest ? [{ resolved: row.latestResolved, importBatchId: row.latestImportBatchId }] : [],
  });
}

/** Every reviewer verdict with its ground truth and its facts, read again only after a write. */
export const loadReviews = (db: Db): Promise<Review[]> => cachedFacts(db, REVIEW_FACTS);

/** Every reviewer verdict (on `tasks`, when given) with its ground truth and its facts, from the tables. */
export async function readReviews(db: Db, tasks?: string[]): Promise<Review[]> {
  const { text: statement, values } = reviewsSqlFor(tasks).toQuery();
  const rows = await db.$queryRawUnsafe<ReviewRow[]>(statement, ...values);
  return rows.map((row) => ({
    taskId: row.taskId,
    reviewer: labelOrMissing(row.model, "(no model)"),
    generator: labelOrMissing(row.generator, "(no generator)"),
    difficulty: labelOrMissing(row.difficulty, "(no difficulty)"),
    repository: labelOrMissing(row.repository, "(no repository)"),
    approved: row.decision === "APPROVE",
    resolved: groundTruth(row),
    confidence: row.confidence,
    steps: row.steps,
    tokens: row.tokensIn === null && row.tokensOut === null ? null : (row.tokensIn ?? 0) + (row.tokensOut ?? 0),
    costUsd: row.costUsd,
    ranReproducer: row.ranReproducer,
    cause: row.cause,
  }));
}

const REVIEW_FACTS: FactSource<Review> = {
  name: "reviews",
  read: readReviews,
  taskOf: (review) => review.taskId,
  order: (a, b) => byCodePoints(a.taskId, b.taskId),
};

/** The reviewer page: SWE-Review's measures and its revision loop, under the same reviewer / generator filters. */
export async function reviewerAnalytics(db: Db, query: ReviewerQuery, blind: BlindSet) {
  const [reviews, pairs] = await Promise.all([
    loadReviews(db).then((all) => visibleOnly(blind, all, (r) => r.taskId)),
    loadRevisionPairs(db).then((all) => visibleOnly(blind, all, (p) => p.taskId)),
  ]);
  const filters = dimensionFilters(
    { reviewer: query.reviewer, generator: query.generator },
    REVISION_DIMENSIONS as Dimensions<unknown>,
  );
  return { ...buildReviewerAnalytics(reviews, query), ...buildRevisionLoop(pairs, filters) };
}

export async function reviewerSliceTaskIds(db: Db, params: SliceParams): Promise<string[]> {
  return uniqueTaskIds(selectItems(await loadReviews(db), params, REVIEW_DIMENSIONS, REVIEW_OUTCOMES));
}
