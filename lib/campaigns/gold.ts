import type { z } from "zod";
import type { PrismaClient } from "../db/client";
import type { Actor } from "../auth/actor";
import { AppError } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import { loadCampaign } from "./access";
import type { GoldTaskSchema } from "./create-campaign";
import { checkedAnswers } from "./submit-label";

/** Adds (or replaces) a gold task: reference answers under the campaign's rubric and why they are right. */
export async function addGoldTask(
  db: PrismaClient,
  actor: Actor,
  campaignId: string,
  input: z.infer<typeof GoldTaskSchema>,
) {
  const campaign = await loadCampaign(db, campaignId);
  const task = await db.task.findFirst({
    where: { OR: [{ id: input.taskId }, { instanceId: input.taskId }] },
    select: { id: true, instanceId: true },
  });
  if (!task)
    throw new AppError("UNPROCESSABLE", `No task has the id or instance id "${input.taskId}"`, undefined, [
      { field: "taskId", in: "body", pointer: "/taskId", detail: "unknown task" },
    ]);
  const existing = await db.campaignTask.findUnique({ where: { campaignId_taskId: { campaignId, taskId: task.id } } });
  if (existing && !existing.gold)
    throw new AppError(
      "CONFLICT",
      `${task.instanceId} is one of the campaign's real tasks; pick a task outside it for the gold set`,
    );
  const reference = checkedAnswers(campaign, input.reference);
  const data = { gold: true, reference, explanation: input.explanation };
  await db.campaignTask.upsert({
    where: { campaignId_taskId: { campaignId, taskId: task.id } },
    create: { campaignId, taskId: task.id, ...data },
    update: data,
  });
  if (campaign.goldThreshold === null)
    await db.campaign.update({ where: { id: campaignId }, data: { goldThreshold: 0.8 } });
  await auditLog(db, {
    actorId: actor.id,
    entityType: "campaign",
    entityId: campaignId,
    action: "campaign.gold-task",
    after: { taskId: task.id, reference },
  });
  return { campaignId, taskId: task.id, instanceId: task.instanceId };
}
