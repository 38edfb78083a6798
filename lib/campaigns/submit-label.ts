import { z } from "zod";
import type { Db, PrismaClient } from "../db/client";
import type { Actor } from "../auth/actor";
import { AppError } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import { releaseLeases } from "../curation/claim-next-task";
import { goldGate, loadCampaign, requireAnnotator, type GoldGate, type LoadedCampaign } from "./access";
import { settleOutcome, type TaskOutcome } from "./outcome";
import { validateAnswers, type Answers } from "./rubric";

export const SubmitLabelSchema = z.object({
  taskId: z.string().min(1),
  answers: z.record(z.string(), z.unknown()),
});
export type SubmitLabelInput = z.infer<typeof SubmitLabelSchema>;

export type SubmitResult = {
  taskId: string;
  gold: { reference: Answers; explanation: string | null; gate: GoldGate; restarted: boolean } | null;
  outcome: TaskOutcome | null;
};

/** The rubric's complaints about the answers, as a 422 naming each question. */
export function checkedAnswers(campaign: LoadedCampaign, raw: Record<string, unknown>): Answers {
  const { answers, errors } = validateAnswers(campaign.questions, raw);
  if (errors.length)
    throw new AppError(
      "UNPROCESSABLE",
      `The answers are incomplete: ${errors.map((e) => e.detail).join("; ")}`,
      undefined,
      errors.map((e) => ({ ...e, in: "body" as const, pointer: `/${e.field.replace(/\./g, "/")}` })),
    );
  return answers;
}

async function openedLabel(db: Db, campaign: LoadedCampaign, taskId: string, annotatorId: string) {
  const label = await db.campaignLabel.findUnique({
    where: { campaignId_taskId_annotatorId: { campaignId: campaign.id, taskId, annotatorId } },
  });
  if (!label)
    throw new AppError(
      "CONFLICT",
      "This task was not handed to you; take tasks with “Review next”, which gives each task to exactly N annotators",
    );
  if (label.submittedAt)
    throw new AppError(
      "CONFLICT",
      "You already labelled this task; a submitted label is final (an adjudicator can resolve it)",
    );
  return label;
}

async function submitGold(
  db: PrismaClient,
  campaign: LoadedCampaign,
  actor: Actor,
  taskId: string,
  answers: Answers,
  goldTask: { reference: unknown; explanation: string | null },
): Promise<SubmitResult> {
  const annotator = await requireAnnotator(db, campaign, actor);
  await openedLabel(db, campaign, taskId, actor.id);
  await db.campaignLabel.update({
    where: { campaignId_taskId_annotatorId: { campaignId: campaign.id, taskId, annotatorId: actor.id } },
    data: { answers, submittedAt: new Date() },
  });
  let gate = await goldGate(db, campaign, annotator);
  let restarted = false;
  if (gate.required && !gate.passed && gate.done >= gate.total) {
    if ((gate.accuracy ?? 0) >= (gate.threshold ?? 0)) {
      await db.campaignAnnotator.update({
        where: { campaignId_userId: { campaignId: campaign.id, userId: actor.id } },
        data: { goldPassedAt: new Date() },
      });
      gate = { ...gate, passed: true };
    } else {
      // below the bar: the gold set starts over, so the next attempt is judged on fresh answers
      await db.campaignLabel.deleteMany({ where: { campaignId: campaign.id, annotatorId: actor.id, gold: true } });
      restarted = true;
    }
    await auditLog(db, {
      actorId: actor.id,
      entityType: "campaign",
      entityId: campaign.id,
      action: "campaign.gold",
      after: { accuracy: gate.accuracy, threshold: gate.threshold, passed: gate.passed },
    });
  }
  return {
    taskId,
    gold: { reference: goldTask.reference as Answers, explanation: goldTask.explanation, gate, restarted },
    outcome: null,
  };
}

/**
 * Submits the annotator's answers on a task they were served. Under a lock on the task row it
 * re-counts the submitted labels, so concurrent submitters never push a task past N; the Nth
 * label settles the task's outcome.
 */
export async function submitLabel(
  db: PrismaClient,
  actor: Actor,
  campaignId: string,
  input: SubmitLabelInput,
): Promise<SubmitResult> {
  const campaign = await loadCampaign(db, campaignId);
  await requireAnnotator(db, campaign, actor);
  const campaignTask = await db.campaignTask.findUnique({
    where: { campaignId_taskId: { campaignId, taskId: input.taskId } },
  });
  if (!campaignTask) throw new AppError("NOT_FOUND", `Task ${input.taskId} is not part of "${campaign.name}"`);
  const answers = checkedAnswers(campaign, input.answers);
  if (campaignTask.gold) return submitGold(db, campaign, actor, input.taskId, answers, campaignTask);

  return db.$transaction(async (tx) => {
    await tx.$queryRawUnsafe("SELECT id FROM tasks WHERE id = $1 FOR UPDATE", input.taskId);
    await openedLabel(tx, campaign, input.taskId, actor.id);
    const submitted = await tx.campaignLabel.count({
      where: { campaignId, taskId: input.taskId, submittedAt: { not: null } },
    });
    if (submitted >= campaign.overlap)
      throw new AppError(
        "CONFLICT",
        `This task already has its ${campaign.overlap} labels; take the next one with “Review next”`,
      );
    await tx.campaignLabel.update({
      where: { campaignId_taskId_annotatorId: { campaignId, taskId: input.taskId, annotatorId: actor.id } },
      data: { answers, submittedAt: new Date(), rubricVersionId: campaign.rubricVersionId },
    });
    await releaseLeases(tx, actor.id);
    const outcome =
      submitted + 1 === campaign.overlap ? await settleOutcome(tx, campaign, input.taskId, actor.id) : null;
    return { taskId: input.taskId, gold: null, outcome };
  });
}
