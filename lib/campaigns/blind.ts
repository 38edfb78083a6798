import type { Db } from "../db/client";
import type { Actor } from "../auth/actor";
import { can } from "../auth/permissions";
import { notFound } from "../errors/app-error";
import { sql, type SqlFragment } from "../tasks/sql";

// Blindness outside the campaign pages, written once: the task page, the task list and its
// facets, and a task's validation runs ask here which tasks a reader may not yet see judged.
// An annotator (a curator, not a campaign manager) of an active campaign that hides the
// verdict is blind on every task of it they have not submitted a label for — served or not,
// so the list cannot be read ahead of "review next". Submitting, or the campaign closing,
// lifts it; admins and adjudicators are never blinded.

/**
 * The tasks whose automated verdict, failure class and runs `actor` may not see yet, as a
 * subquery of task ids, or null for a role that is never blinded. The task list puts it in
 * its own statement (no round trip of its own); isBlindOn asks it of one task.
 */
export function blindTaskIdsSql(actor: Pick<Actor, "id" | "role">): SqlFragment | null {
  if (can(actor.role, "campaigns:manage")) return null;
  return sql`SELECT ct.task_id FROM campaign_tasks ct JOIN campaigns c ON c.id = ct.campaign_id
    WHERE c.status = 'ACTIVE' AND c.hide_verdict
      AND EXISTS (SELECT 1 FROM campaign_annotators a WHERE a.campaign_id = c.id AND a.user_id = ${actor.id})
      AND NOT EXISTS (SELECT 1 FROM campaign_labels l WHERE l.task_id = ct.task_id AND l.annotator_id = ${actor.id} AND l.submitted_at IS NOT NULL)`;
}

/** Whether `actor` is blind on one task: asked of that task alone, not by listing every task they are blind on. */
export async function isBlindOn(db: Db, actor: Pick<Actor, "id" | "role">, taskId: string): Promise<boolean> {
  const blind = blindTaskIdsSql(actor);
  if (!blind) return false;
  const { text, values } = sql`SELECT EXISTS (SELECT 1 FROM (${blind}) b WHERE b.task_id = ${taskId}) AS blind`.toQuery();
  const [row] = await db.$queryRawUnsafe<{ blind: boolean }[]>(text, ...values);
  return row.blind;
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
