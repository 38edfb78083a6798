import type { Db, PrismaClient } from "../db/client";
import type { Actor } from "../auth/actor";
import { leaseNextTask } from "../curation/claim-next-task";
import { raw, sql } from "../db/sql";
import { goldGate, loadCampaign, requireAnnotator, type GoldGate, type LoadedCampaign } from "./access";

// "Review next" for a campaign: until the annotator has passed the gold set, the next gold
// task; then the next real task still short of N submitted labels that they have not
// labelled, under the review queue's own task lease (lib/curation/claim-next-task.ts). The
// lease spreads annotators over the tasks; when only held tasks are left, one with room for
// another label is shared. submit-label.ts re-counts under a row lock, so a task never takes
// more than N labels.

export type Served =
  | { kind: "gold"; taskId: string; instanceId: string; gate: GoldGate }
  | { kind: "task"; taskId: string; instanceId: string; leaseExpiresAt: Date; gate: GoldGate }
  | { kind: "done"; gate: GoldGate };

/** Records when the annotator first opened the task (kept across re-serves), for the time per task. */
async function markOpened(db: Db, campaign: LoadedCampaign, annotatorId: string, taskId: string, gold: boolean) {
  await db.campaignLabel.upsert({
    where: { campaignId_taskId_annotatorId: { campaignId: campaign.id, taskId, annotatorId } },
    create: { campaignId: campaign.id, taskId, annotatorId, rubricVersionId: campaign.rubricVersionId, gold },
    update: {},
  });
}

async function nextGoldTask(db: PrismaClient, campaign: LoadedCampaign, actor: Actor, gate: GoldGate): Promise<Served> {
  const next = await db.campaignTask.findFirst({
    where: {
      campaignId: campaign.id,
      gold: true,
      task: {
        campaignLabels: { none: { campaignId: campaign.id, annotatorId: actor.id, submittedAt: { not: null } } },
      },
    },
    orderBy: { createdAt: "asc" },
    include: { task: { select: { instanceId: true } } },
  });
  if (!next) return { kind: "done", gate };
  await markOpened(db, campaign, actor.id, next.taskId, true);
  return { kind: "gold", taskId: next.taskId, instanceId: next.task.instanceId, gate };
}

/** Labels others have opened on the task and not yet submitted. */
const openByOthers = (campaignId: string, annotatorId: string) =>
  sql`(SELECT count(*) FROM campaign_labels l WHERE l.campaign_id = ${campaignId} AND l.task_id = t.id AND l.submitted_at IS NULL AND l.annotator_id <> ${annotatorId})`;
const submittedCount = (campaignId: string) =>
  sql`(SELECT count(*) FROM campaign_labels l WHERE l.campaign_id = ${campaignId} AND l.task_id = t.id AND l.submitted_at IS NOT NULL)`;

export async function serveNext(db: PrismaClient, actor: Actor, campaignId: string): Promise<Served> {
  const campaign = await loadCampaign(db, campaignId);
  const annotator = await requireAnnotator(db, campaign, actor);
  const gate = await goldGate(db, campaign, annotator);
  if (!gate.passed) return nextGoldTask(db, campaign, actor, gate);
  const eligible = sql`EXISTS (SELECT 1 FROM campaign_tasks ct WHERE ct.campaign_id = ${campaign.id} AND ct.task_id = t.id AND NOT ct.gold)
        AND NOT EXISTS (SELECT 1 FROM campaign_labels mine WHERE mine.campaign_id = ${campaign.id} AND mine.task_id = t.id AND mine.annotator_id = ${actor.id} AND mine.submitted_at IS NOT NULL)
        AND ${submittedCount(campaign.id)} < ${campaign.overlap}`;
  // tasks closest to their N labels first, so finished tasks (and their outcome) come early
  const orderBy = sql`${submittedCount(campaign.id)} DESC, ${raw("t.created_at, t.id")}`;
  const afterClaim = (tx: Db, taskId: string) => markOpened(tx, campaign, actor.id, taskId, false);
  // a task free of others' leases first, so annotators spread over the tasks; then one another
  // annotator holds but that still has room for this one (its submitted and open labels short
  // of N): a task needs N annotators, and answering "done" while it is only held would leave it short
  const claimed =
    (await leaseNextTask(db, actor, { eligible, orderBy, afterClaim })) ??
    (await leaseNextTask(db, actor, {
      eligible: sql`${eligible} AND ${submittedCount(campaign.id)} + ${openByOthers(campaign.id, actor.id)} < ${campaign.overlap}`,
      orderBy,
      afterClaim,
      shared: true,
    }));
  return claimed ? { kind: "task", ...claimed, gate } : { kind: "done", gate };
}
