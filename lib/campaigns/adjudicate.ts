import { z } from "zod";
import type { PrismaClient } from "../db/client";
import type { Actor } from "../auth/actor";
import { AppError } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import { annotatorOf, loadCampaign } from "./access";
import { settleOutcome } from "./outcome";
import { checkedAnswers } from "./submit-label";

// An adjudicator's resolution is its own record beside the labels (which stay as given); it
// replaces the combined answers in the task's outcome.

export const AdjudicateSchema = z.object({
  taskId: z.string().min(1),
  answers: z.record(z.string(), z.unknown()),
  note: z.string().trim().max(5_000).optional(),
});

export async function adjudicate(
  db: PrismaClient,
  actor: Actor,
  campaignId: string,
  input: z.infer<typeof AdjudicateSchema>,
) {
  const campaign = await loadCampaign(db, campaignId);
  if (await annotatorOf(db, campaignId, actor.id))
    throw new AppError(
      "FORBIDDEN",
      "An annotator of this campaign cannot adjudicate it; ask an admin who did not label its tasks",
    );
  const submitted = await db.campaignLabel.count({
    where: { campaignId, taskId: input.taskId, gold: false, submittedAt: { not: null } },
  });
  if (submitted < campaign.overlap)
    throw new AppError(
      "CONFLICT",
      `This task has ${submitted} of its ${campaign.overlap} labels; adjudicate once all are in`,
    );
  const answers = checkedAnswers(campaign, input.answers);
  return db.$transaction(async (tx) => {
    const record = await tx.campaignAdjudication.upsert({
      where: { campaignId_taskId: { campaignId, taskId: input.taskId } },
      create: { campaignId, taskId: input.taskId, adjudicatorId: actor.id, answers, note: input.note ?? null },
      update: { adjudicatorId: actor.id, answers, note: input.note ?? null },
    });
    await auditLog(tx, {
      actorId: actor.id,
      entityType: "campaign",
      entityId: campaignId,
      action: "campaign.adjudicate",
      after: { taskId: input.taskId, answers, note: input.note },
    });
    const outcome = await settleOutcome(tx, campaign, input.taskId, actor.id);
    return { id: record.id, taskId: input.taskId, outcome };
  });
}
