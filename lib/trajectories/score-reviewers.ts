import type { Db, Prisma } from "../db/client";
import { guardCandidatePatch } from "../validation/guard-candidate-patch";
import { visibleOnly, type BlindSet } from "../auth/blind";
import { proportion, type Proportion } from "../metrics/wilson";
import { labelOrMissing } from "../metrics/missing-label";

// A reviewer agent's verdict is scored against executed ground truth: whether the candidate
// patch resolved the task, decided by a validation run, never by the verdict file itself.
// "Positive" = the reviewer approved. A false positive is the costly miss: an approved
// patch that does not resolve the task (a symptom fix, say).

export type Confusion = { truePositive: number; falsePositive: number; trueNegative: number; falseNegative: number };
export type ReviewerScore = Confusion & {
  reviewer: string;
  scored: number;
  awaitingGroundTruth: number;
  accuracy: number | null;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  /** accuracy, precision and recall with their counts and 95 % Wilson intervals */
  proportions: { accuracy: Proportion; precision: Proportion; recall: Proportion };
  /** mean confidence when right minus when wrong: positive means its confidence is informative */
  confidenceGap: number | null;
};

export type Verdict = { reviewer: string; approved: boolean; resolved: boolean | null; confidence: number | null };

const ratio = (num: number, den: number) => (den === 0 ? null : num / den);
const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);

/** Pure scoring: one row per reviewer, sorted by name. */
export function scoreVerdicts(verdicts: Verdict[]): ReviewerScore[] {
  const byReviewer = new Map<string, Verdict[]>();
  for (const v of verdicts) byReviewer.set(v.reviewer, [...(byReviewer.get(v.reviewer) ?? []), v]);
  return [...byReviewer.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([reviewer, all]) => {
      const scored = all.filter((v) => v.resolved !== null);
      const c: Confusion = { truePositive: 0, falsePositive: 0, trueNegative: 0, falseNegative: 0 };
      const rightConf: number[] = [];
      const wrongConf: number[] = [];
      for (const v of scored) {
        const right = v.approved === v.resolved;
        if (v.approved) c[v.resolved ? "truePositive" : "falsePositive"]++;
        else c[v.resolved ? "falseNegative" : "trueNegative"]++;
        if (v.confidence !== null) (right ? rightConf : wrongConf).push(v.confidence);
      }
      const precision = ratio(c.truePositive, c.truePositive + c.falsePositive);
      const recall = ratio(c.truePositive, c.truePositive + c.falseNegative);
      const rightMean = mean(rightConf);
      const wrongMean = mean(wrongConf);
      return {
        reviewer,
        ...c,
        scored: scored.length,
        awaitingGroundTruth: all.length - scored.length,
        accuracy: ratio(c.truePositive + c.trueNegative, scored.length),
        precision,
        recall,
        proportions: {
          accuracy: proportion(c.truePositive + c.trueNegative, scored.length),
          precision: proportion(c.truePositive, c.truePositive + c.falsePositive),
          recall: proportion(c.truePositive, c.truePositive + c.falseNegative),
        },
        f1:
          precision !== null && recall !== null && precision + recall > 0
            ? (2 * precision * recall) / (precision + recall)
            : null,
        confidenceGap: rightMean !== null && wrongMean !== null ? rightMean - wrongMean : null,
      };
    });
}

type CandidateFacts = {
  resolved: boolean | null;
  patch: string;
  task: { testPatch: string; environment: { currentRevision: { evalScript: string } | null } };
  validationRuns: Array<{ resolved: boolean | null; importBatchId: string | null }>;
};

/**
 * The candidate's honest result: the latest run that decided it. A result imported from
 * elsewhere (a harness report) is believed only when the patch leaves the tests alone —
 * other harnesses restore the test patch's files but not, say, a conftest.py the
 * candidate added — so such a candidate awaits a run of ours.
 */
export function honestResolved(candidate: CandidateFacts): boolean | null {
  const latest = candidate.validationRuns[0];
  if (latest && latest.importBatchId === null) return latest.resolved;
  const resolved = latest ? latest.resolved : candidate.resolved;
  if (resolved === null) return null;
  const guard = guardCandidatePatch(candidate.patch, {
    testPatch: candidate.task.testPatch,
    evalScript: candidate.task.environment.currentRevision?.evalScript ?? "",
  });
  return guard.protectedPaths.length || guard.runnerHooks.length ? null : resolved;
}

/** What honestResolved reads of a candidate patch. */
export const GROUND_TRUTH_SELECT = {
  resolved: true,
  patch: true,
  task: { select: { testPatch: true, environment: { select: { currentRevision: { select: { evalScript: true } } } } } },
  validationRuns: {
    where: { status: "SUCCEEDED", resolved: { not: null } },
    orderBy: { finishedAt: "desc" },
    take: 1,
    select: { resolved: true, importBatchId: true },
  },
} satisfies Prisma.CandidatePatchSelect;

/** Every reviewer's score, but for verdicts on tasks `blind` hides: their ground truth is whether the task's candidate resolved it. */
export async function scoreReviewers(db: Db, blind: BlindSet): Promise<ReviewerScore[]> {
  const all = await db.trajectory.findMany({
    where: { role: "REVIEWER", decision: { not: null } },
    select: {
      taskId: true,
      model: true,
      decision: true,
      confidence: true,
      candidatePatch: { select: GROUND_TRUTH_SELECT },
    },
  });
  const rows = await visibleOnly(blind, all, (row) => row.taskId);
  return scoreVerdicts(
    rows.map((row) => ({
      reviewer: labelOrMissing(row.model, "(no model)"),
      approved: row.decision === "APPROVE",
      resolved: row.candidatePatch ? honestResolved(row.candidatePatch) : null,
      confidence: row.confidence,
    })),
  );
}
