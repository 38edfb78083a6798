import type { Db } from "../db/client";
import type { Actor } from "../auth/actor";
import {
  agreementWithOthers,
  disagreementSpread,
  goldAccuracy,
  median,
  questionAgreement,
  type SubmittedLabel,
} from "./agreement";
import { goldGate, loadCampaign, requireCampaignReader, type LoadedCampaign } from "./access";
import { outcomeOf } from "./outcome";
import type { Answers } from "./rubric";
import { can } from "../auth/permissions";

// What a campaign's page shows. Admins get everything; an annotator only their own progress
// (never labels, agreement or disagreements, which would reveal others' answers).

const MAX_DISAGREEMENTS = 100;

async function submittedLabels(db: Db, campaignId: string, gold: boolean) {
  const rows = await db.campaignLabel.findMany({
    where: { campaignId, gold, submittedAt: { not: null } },
    select: { taskId: true, annotatorId: true, answers: true, openedAt: true, submittedAt: true },
    orderBy: { submittedAt: "asc" },
  });
  return rows.map((r) => ({
    ...r,
    answers: r.answers as Answers,
    submittedAt: r.submittedAt!,
  })) satisfies SubmittedLabel[];
}

/** Agreement with the others over the annotator's labels in order, in up to four windows: does it drift? */
function drift(campaign: LoadedCampaign, labels: SubmittedLabel[], annotatorId: string) {
  const own = labels.filter((l) => l.annotatorId === annotatorId);
  if (own.length < 2) return [];
  const size = Math.max(1, Math.ceil(own.length / 4));
  const windows: { from: Date; to: Date; tasks: number; agreement: number | null }[] = [];
  for (let i = 0; i < own.length; i += size) {
    const slice = own.slice(i, i + size);
    const tasks = new Set(slice.map((l) => l.taskId));
    const { rate } = agreementWithOthers(
      campaign.questions,
      labels.filter((l) => tasks.has(l.taskId)),
      annotatorId,
    );
    windows.push({
      from: slice[0].submittedAt,
      to: slice[slice.length - 1].submittedAt,
      tasks: slice.length,
      agreement: rate,
    });
  }
  return windows;
}

async function annotatorRows(db: Db, campaign: LoadedCampaign, labels: SubmittedLabel[], taskCount: number) {
  const annotators = await db.campaignAnnotator.findMany({
    where: { campaignId: campaign.id },
    include: { user: { select: { id: true, name: true, email: true } } },
    orderBy: { createdAt: "asc" },
  });
  const goldTasks = await db.campaignTask.findMany({
    where: { campaignId: campaign.id, gold: true },
    select: { taskId: true, reference: true },
  });
  const goldLabels = await submittedLabels(db, campaign.id, true);
  const share = Math.min(taskCount, Math.ceil((taskCount * campaign.overlap) / Math.max(1, annotators.length)));
  return Promise.all(
    annotators.map(async (a) => {
      const own = labels.filter((l) => l.annotatorId === a.userId);
      const gold = goldAccuracy(
        campaign.questions,
        goldLabels
          .filter((l) => l.annotatorId === a.userId)
          .map((l) => ({
            answers: l.answers,
            reference: (goldTasks.find((g) => g.taskId === l.taskId)?.reference ?? {}) as Answers,
          })),
      );
      return {
        id: a.userId,
        name: a.user.name ?? a.user.email,
        done: own.length,
        assigned: share,
        medianSeconds: median(own.map((l) => (l.submittedAt.getTime() - l.openedAt.getTime()) / 1000)),
        agreement: agreementWithOthers(campaign.questions, labels, a.userId).rate,
        goldAccuracy: gold.accuracy,
        gate: await goldGate(db, campaign, a),
        drift: drift(campaign, labels, a.userId),
      };
    }),
  );
}

function disagreements(
  campaign: LoadedCampaign,
  labels: SubmittedLabel[],
  names: Map<string, string>,
  instanceIds: Map<string, string>,
  adjudicated: Map<string, Answers>,
) {
  const byTask = new Map<string, SubmittedLabel[]>();
  for (const label of labels) byTask.set(label.taskId, [...(byTask.get(label.taskId) ?? []), label]);
  return [...byTask.entries()]
    .filter(([, taskLabels]) => taskLabels.length >= campaign.overlap)
    .map(([taskId, taskLabels]) => {
      const answers = taskLabels.map((l) => l.answers);
      const { spread, questions } = disagreementSpread(campaign.questions, answers);
      const outcome = outcomeOf(campaign, answers, adjudicated.get(taskId) ?? null);
      return {
        taskId,
        instanceId: instanceIds.get(taskId) ?? taskId,
        spread,
        questions,
        labels: taskLabels.map((l) => ({ annotator: names.get(l.annotatorId) ?? l.annotatorId, answers: l.answers })),
        adjudicated: adjudicated.has(taskId),
        outcome,
      };
    })
    .filter((d) => d.spread > 0)
    .sort((a, b) => b.spread - a.spread || a.instanceId.localeCompare(b.instanceId));
}

export async function campaignReport(db: Db, actor: Actor, campaignId: string) {
  const campaign = await loadCampaign(db, campaignId);
  const annotator = await requireCampaignReader(db, campaign, actor);
  const taskCount = await db.campaignTask.count({ where: { campaignId, gold: false } });
  const goldCount = await db.campaignTask.count({ where: { campaignId, gold: true } });
  const labels = await submittedLabels(db, campaignId, false);
  const settings = {
    id: campaign.id,
    name: campaign.name,
    status: campaign.status,
    rubricName: campaign.rubricName,
    rubricVersion: campaign.rubricVersion,
    overlap: campaign.overlap,
    combination: campaign.combination,
    dropRule: campaign.dropRule,
    blind: campaign.blind,
    hideVerdict: campaign.hideVerdict,
    goldThreshold: campaign.goldThreshold,
    viewQuery: campaign.viewQuery,
    tasks: taskCount,
    goldTasks: goldCount,
    questions: campaign.questions,
  };
  const perTask = new Map<string, number>();
  for (const label of labels) perTask.set(label.taskId, (perTask.get(label.taskId) ?? 0) + 1);
  const completeTasks = [...perTask.values()].filter((n) => n >= campaign.overlap).length;
  const progress = { labels: labels.length, labelsNeeded: taskCount * campaign.overlap, completeTasks };
  // an admin who also labels keeps the admin's report: one role does not hide the other's view
  if (annotator && !can(actor.role, "campaigns:manage")) {
    const rows = await annotatorRows(db, campaign, labels, taskCount);
    return {
      role: "annotator" as const,
      settings,
      progress,
      annotators: rows.filter((r) => r.id === actor.id).map((r) => ({ ...r, agreement: null, drift: [] })),
      agreement: [],
      disagreements: [],
      disagreementCount: 0,
    };
  }
  const rows = await annotatorRows(db, campaign, labels, taskCount);
  const names = new Map(rows.map((r) => [r.id, r.name]));
  const tasks = await db.task.findMany({
    where: { id: { in: [...new Set(labels.map((l) => l.taskId))] } },
    select: { id: true, instanceId: true },
  });
  const adjudications = await db.campaignAdjudication.findMany({
    where: { campaignId },
    select: { taskId: true, answers: true },
  });
  const all = disagreements(
    campaign,
    labels,
    names,
    new Map(tasks.map((t) => [t.id, t.instanceId])),
    new Map(adjudications.map((a) => [a.taskId, a.answers as Answers])),
  );
  const annotatorIds = rows.map((r) => r.id);
  return {
    role: "admin" as const,
    settings,
    progress,
    annotators: rows,
    agreement: campaign.questions.map((q) => questionAgreement(q, labels, annotatorIds)),
    disagreements: all.slice(0, MAX_DISAGREEMENTS),
    disagreementCount: all.length,
  };
}
export type CampaignReport = Awaited<ReturnType<typeof campaignReport>>;

/** The campaigns the actor annotates (all of them for an admin), with progress. */
export async function listCampaigns(db: Db, actor: Actor) {
  const campaigns = await db.campaign.findMany({
    where: can(actor.role, "campaigns:manage") ? {} : { annotators: { some: { userId: actor.id } } },
    orderBy: { createdAt: "desc" },
    include: { rubricVersion: { include: { rubric: true } }, _count: { select: { annotators: true } } },
  });
  return Promise.all(
    campaigns.map(async (c) => {
      const [tasks, labels, mine] = await Promise.all([
        db.campaignTask.count({ where: { campaignId: c.id, gold: false } }),
        db.campaignLabel.count({ where: { campaignId: c.id, gold: false, submittedAt: { not: null } } }),
        db.campaignLabel.count({
          where: { campaignId: c.id, gold: false, annotatorId: actor.id, submittedAt: { not: null } },
        }),
      ]);
      return {
        id: c.id,
        name: c.name,
        status: c.status,
        rubric: `${c.rubricVersion.rubric.name} v${c.rubricVersion.version}`,
        overlap: c.overlap,
        annotators: c._count.annotators,
        tasks,
        labels,
        labelsNeeded: tasks * c.overlap,
        mine,
        createdAt: c.createdAt,
      };
    }),
  );
}
