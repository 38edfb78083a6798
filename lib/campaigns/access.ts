import type { Db } from "../db/client";
import type { Actor } from "../auth/actor";
import { AppError } from "../errors/app-error";
import { goldAccuracy } from "./agreement";
import { DropRuleSchema } from "./combine";
import { parseQuestions, type Answers } from "./rubric";
import { can } from "../auth/permissions";

// Who is what in a campaign: its annotators label; admins who are not its annotators manage
// and adjudicate. An annotator of a blind campaign sees others' answers on a task only
// after submitting their own (see lib/campaigns/campaign-item.ts).

export async function loadCampaign(db: Db, campaignId: string) {
  const campaign = await db.campaign.findUnique({
    where: { id: campaignId },
    include: { rubricVersion: { include: { rubric: true } } },
  });
  if (!campaign) throw new AppError("NOT_FOUND", `Campaign ${campaignId} was not found`);
  return {
    ...campaign,
    questions: parseQuestions(campaign.rubricVersion.questions),
    dropRule: DropRuleSchema.parse(campaign.dropRule),
    rubricName: campaign.rubricVersion.rubric.name,
    rubricVersion: campaign.rubricVersion.version,
  };
}
export type LoadedCampaign = Awaited<ReturnType<typeof loadCampaign>>;

export async function annotatorOf(db: Db, campaignId: string, userId: string) {
  return db.campaignAnnotator.findUnique({ where: { campaignId_userId: { campaignId, userId } } });
}

export async function requireAnnotator(db: Db, campaign: LoadedCampaign, actor: Actor) {
  const annotator = await annotatorOf(db, campaign.id, actor.id);
  if (!annotator)
    throw new AppError(
      "FORBIDDEN",
      `You are not an annotator of "${campaign.name}"; an admin adds annotators when creating a campaign`,
    );
  if (campaign.status !== "ACTIVE")
    throw new AppError("CONFLICT", `"${campaign.name}" is closed; it takes no more labels`);
  return annotator;
}

/** An annotator may see the campaign's own pages; an admin may see everything. */
export async function requireCampaignReader(db: Db, campaign: LoadedCampaign, actor: Actor) {
  const annotator = await annotatorOf(db, campaign.id, actor.id);
  if (!annotator && !can(actor.role, "campaigns:manage"))
    throw new AppError("NOT_FOUND", `Campaign ${campaign.id} was not found`);
  return annotator;
}

export type GoldGate = {
  required: boolean;
  passed: boolean;
  done: number;
  total: number;
  accuracy: number | null;
  threshold: number | null;
};

/** Where an annotator stands on the campaign's gold set. */
export async function goldGate(
  db: Db,
  campaign: LoadedCampaign,
  annotator: { userId: string; goldPassedAt: Date | null },
): Promise<GoldGate> {
  const goldTasks = await db.campaignTask.findMany({
    where: { campaignId: campaign.id, gold: true },
    select: { taskId: true, reference: true },
  });
  const required = campaign.goldThreshold !== null && goldTasks.length > 0;
  const labels = await db.campaignLabel.findMany({
    where: { campaignId: campaign.id, annotatorId: annotator.userId, gold: true, submittedAt: { not: null } },
    select: { taskId: true, answers: true },
  });
  const { accuracy } = goldAccuracy(
    campaign.questions,
    labels.map((l) => ({
      answers: l.answers as Answers,
      reference: (goldTasks.find((g) => g.taskId === l.taskId)?.reference ?? {}) as Answers,
    })),
  );
  return {
    required,
    passed: !required || annotator.goldPassedAt !== null,
    done: labels.length,
    total: goldTasks.length,
    accuracy,
    threshold: campaign.goldThreshold,
  };
}
