import type { Db } from "../db/client";
import type { Actor } from "../auth/actor";
import { AppError } from "../errors/app-error";
import { loadCampaign, requireCampaignReader } from "./access";
import type { Answers } from "./rubric";
import type { BlindSet } from "../auth/blind";

// One task as an annotator sees it. Blindness is decided here, on the server: until the
// annotator has submitted their own label, the answer carries neither the others' labels,
// nor the adjudication, nor (with hideVerdict) the automated verdict, nor a gold task's
// reference — they are simply not in the JSON.

/** `blind`: the reader's blind set, so a verdict another campaign hides stays hidden here too. */
export async function campaignItem(db: Db, actor: Actor, campaignId: string, taskId: string, blind: BlindSet) {
  const campaign = await loadCampaign(db, campaignId);
  const annotator = await requireCampaignReader(db, campaign, actor);
  const campaignTask = await db.campaignTask.findUnique({
    where: { campaignId_taskId: { campaignId, taskId } },
    include: {
      task: {
        select: {
          id: true,
          instanceId: true,
          problemStatement: true,
          hintsText: true,
          fixPatch: true,
          testPatch: true,
          failToPass: true,
          passToPass: true,
          automatedVerdict: true,
          difficulty: true,
          environment: { select: { repository: { select: { owner: true, name: true } } } },
        },
      },
    },
  });
  if (!campaignTask) throw new AppError("NOT_FOUND", `Task ${taskId} is not part of "${campaign.name}"`);
  const labels = await db.campaignLabel.findMany({
    where: { campaignId, taskId },
    include: { annotator: { select: { id: true, name: true, email: true } } },
    orderBy: { submittedAt: "asc" },
  });
  const own = annotator ? (labels.find((l) => l.annotatorId === actor.id) ?? null) : null;
  const ownSubmitted = !!own?.submittedAt;
  // an admin who is not one of the annotators adjudicates: they see everything
  const seesOthers = !annotator || ownSubmitted || !campaign.blind;
  const seesVerdict = (!annotator || ownSubmitted || !campaign.hideVerdict) && !(await blind.hides(taskId));
  const adjudication = seesOthers
    ? await db.campaignAdjudication.findUnique({
        where: { campaignId_taskId: { campaignId, taskId } },
        include: { adjudicator: { select: { name: true, email: true } } },
      })
    : null;
  const { automatedVerdict, environment, ...task } = campaignTask.task;

  return {
    campaign: {
      id: campaign.id,
      name: campaign.name,
      blind: campaign.blind,
      overlap: campaign.overlap,
      rubricName: campaign.rubricName,
      rubricVersion: campaign.rubricVersion,
    },
    questions: campaign.questions,
    task: {
      ...task,
      repository: `${environment.repository.owner}/${environment.repository.name}`,
      ...(seesVerdict ? { automatedVerdict } : {}),
    },
    gold: campaignTask.gold,
    reference:
      campaignTask.gold && (ownSubmitted || !annotator)
        ? { answers: campaignTask.reference as Answers, explanation: campaignTask.explanation }
        : null,
    own: own
      ? { answers: (own.answers as Answers | null) ?? null, openedAt: own.openedAt, submittedAt: own.submittedAt }
      : null,
    others: seesOthers
      ? labels
          .filter((l) => l.submittedAt && l.annotatorId !== actor.id)
          .map((l) => ({
            annotator: l.annotator.name ?? l.annotator.email,
            answers: l.answers as Answers,
            submittedAt: l.submittedAt,
          }))
      : null,
    submittedCount: seesOthers ? labels.filter((l) => l.submittedAt).length : null,
    adjudication: adjudication
      ? {
          answers: adjudication.answers as Answers,
          note: adjudication.note,
          adjudicator: adjudication.adjudicator.name ?? adjudication.adjudicator.email,
          at: adjudication.createdAt,
        }
      : null,
    hidden: { others: !seesOthers, verdict: !seesVerdict },
  };
}
export type CampaignItem = Awaited<ReturnType<typeof campaignItem>>;
