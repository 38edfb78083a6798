import type { Db } from "../db/client";
import type { Actor } from "../auth/actor";
import { can } from "../auth/permissions";
import { notFound } from "../errors/app-error";

// Blindness outside the campaign pages, written once: the task page, the task list and its
// facets, and a task's validation runs ask here which tasks a reader may not yet see judged.
// An annotator (a curator, not a campaign manager) of an active campaign that hides the
// verdict is blind on every task of it they have not submitted a label for — served or not,
// so the list cannot be read ahead of "review next". Submitting, or the campaign closing,
// lifts it; admins and adjudicators are never blinded.

/** The ids of the tasks whose automated verdict, failure class and runs `actor` may not see yet. */
export async function blindTaskIdsFor(db: Db, actor: Pick<Actor, "id" | "role">): Promise<string[]> {
  if (can(actor.role, "campaigns:manage")) return [];
  const rows = await db.campaignTask.findMany({
    where: {
      campaign: { status: "ACTIVE", hideVerdict: true, annotators: { some: { userId: actor.id } } },
      task: { campaignLabels: { none: { annotatorId: actor.id, submittedAt: { not: null } } } },
    },
    select: { taskId: true },
    distinct: ["taskId"],
  });
  return rows.map((row) => row.taskId);
}

/** Whether `actor` is blind on one task. */
export async function isBlindOn(db: Db, actor: Pick<Actor, "id" | "role">, taskId: string): Promise<boolean> {
  return (await blindTaskIdsFor(db, actor)).includes(taskId);
}

/** A task's runs and logs answer as if absent to a blind reader: their results would tell the verdict. */
export async function requireNotBlindOn(db: Db, actor: Pick<Actor, "id" | "role">, taskId: string, what: string): Promise<void> {
  if (await isBlindOn(db, actor, taskId)) throw notFound(what);
}

export const HIDDEN_UNTIL_SUBMITTED = "hidden until you submit your label";

type Judged = { automatedVerdict: unknown; failureClass: unknown; verdictOverride: unknown; overrideJustification: unknown };

/** The task without what judges it: the verdict, its override, the failure class, and which candidate patches resolved it. */
export function withoutVerdict<T extends Judged & { candidatePatches?: { resolved: boolean | null }[] }>(task: T) {
  return {
    ...task,
    automatedVerdict: null,
    failureClass: null,
    verdictOverride: null,
    overrideJustification: null,
    ...(task.candidatePatches ? { candidatePatches: task.candidatePatches.map((patch) => ({ ...patch, resolved: null })) } : {}),
    verdictHidden: HIDDEN_UNTIL_SUBMITTED,
  };
}
