import type { Db } from "../db/client";
import { notFound } from "../errors/app-error";
import { historyWithoutVerdict, type BlindSet } from "../auth/blind";

const HISTORY_LIMIT = 200;

/**
 * The task's audit trail, newest first: its decisions, edits and overrides, and its environment's
 * revisions; to a reader blind on the task (`blind`), without the events and fields that judge it.
 */
export async function taskHistory(db: Db, taskId: string, blind: BlindSet) {
  const task = await db.task.findUnique({ where: { id: taskId }, select: { id: true, environmentId: true } });
  if (!task) throw notFound(`Task ${taskId}`);
  const events = await db.auditEvent.findMany({
    where: {
      OR: [
        { entityType: "task", entityId: task.id },
        { entityType: "environment", entityId: task.environmentId },
      ],
    },
    orderBy: { createdAt: "desc" },
    take: HISTORY_LIMIT,
    include: { actor: { select: { id: true, name: true, email: true } } },
  });
  const shown = (await blind.hides(task.id)) ? historyWithoutVerdict(events) : events;
  return shown.map((e) => ({
    id: e.id,
    entityType: e.entityType,
    action: e.action,
    at: e.createdAt,
    actor: e.actor ? { id: e.actor.id, name: e.actor.name ?? e.actor.email } : null,
    before: e.before,
    after: e.after,
  }));
}
export type TaskHistoryEvent = Awaited<ReturnType<typeof taskHistory>>[number];
