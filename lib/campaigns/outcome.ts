import type { Db } from "../db/client";
import { auditLog } from "../audit/audit-log";
import { applyDropRule, combineAnswers, type CombinedAnswers, type Outcome } from "./combine";
import type { LoadedCampaign } from "./access";
import type { Answers } from "./rubric";

// A task's campaign outcome: the adjudicator's answers when there are any, else the N labels
// combined by the campaign's rule; the drop rule then keeps or drops it, and that becomes the
// task's curation status (kept → APPROVED, dropped → REJECTED), audited with the answers.

export type TaskOutcome = Outcome & { combined: CombinedAnswers; adjudicated: boolean };

export function outcomeOf(
  campaign: Pick<LoadedCampaign, "questions" | "combination" | "dropRule">,
  labels: readonly Answers[],
  adjudication: Answers | null,
): TaskOutcome {
  const combined = adjudication
    ? combineAnswers(campaign.questions, [adjudication], "MOST_SEVERE") // one answer set: every rule gives it back unchanged
    : combineAnswers(campaign.questions, labels, campaign.combination);
  return { ...applyDropRule(campaign.dropRule, combined), combined, adjudicated: adjudication !== null };
}

/** Writes the outcome onto the task; call in the transaction that completed or adjudicated it. */
export async function settleOutcome(
  db: Db,
  campaign: LoadedCampaign,
  taskId: string,
  actorId: string,
): Promise<TaskOutcome> {
  const [labels, adjudication] = await Promise.all([
    db.campaignLabel.findMany({
      where: { campaignId: campaign.id, taskId, submittedAt: { not: null } },
      select: { answers: true },
    }),
    db.campaignAdjudication.findUnique({ where: { campaignId_taskId: { campaignId: campaign.id, taskId } } }),
  ]);
  const outcome = outcomeOf(
    campaign,
    labels.map((l) => l.answers as Answers),
    (adjudication?.answers as Answers | undefined) ?? null,
  );
  const before = await db.task.findUniqueOrThrow({ where: { id: taskId }, select: { curationStatus: true } });
  const curationStatus = outcome.dropped ? "REJECTED" : "APPROVED";
  await db.task.update({ where: { id: taskId }, data: { curationStatus, version: { increment: 1 } } });
  await auditLog(db, {
    actorId,
    entityType: "task",
    entityId: taskId,
    action: "campaign.outcome",
    before: { curationStatus: before.curationStatus },
    after: {
      curationStatus,
      campaign: campaign.name,
      dropped: outcome.dropped,
      reasons: outcome.reasons,
      combined: outcome.combined,
      adjudicated: outcome.adjudicated,
    },
  });
  return outcome;
}
