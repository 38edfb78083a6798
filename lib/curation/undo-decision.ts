import type { Db, PrismaClient } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import { updateTaskAtVersion } from "../tasks/task-version";
import { recomputeStatus } from "./record-decision";
import { UNDO_WINDOW_MS } from "./decision-rules";

/** Why this decision cannot be undone by this curator now, or null when it can. */
async function undoProblem(
  db: Db,
  actor: { id: string },
  decision: { id: string; taskId: string; curatorId: string; createdAt: Date },
  now: Date,
) {
  if (decision.curatorId !== actor.id) return "Only the curator who made a decision can undo it";
  if (now.getTime() - decision.createdAt.getTime() > UNDO_WINDOW_MS) {
    return `A decision can be undone for ${UNDO_WINDOW_MS / 60_000} minutes after it was made; decide again instead (the new decision supersedes this one)`;
  }
  const later = await db.curationDecision.count({
    where: { taskId: decision.taskId, curatorId: actor.id, createdAt: { gt: decision.createdAt } },
  });
  return later ? "You decided this task again since; only your latest decision can be undone" : null;
}

/**
 * Takes back a curator's own latest decision on a task within UNDO_WINDOW_MS: the decision is
 * removed, the task's status recomputed from the decisions left, and the audit trail gets a
 * "decision_undone" entry that holds the undone decision in full and says what it reverted.
 */
export async function undoDecision(db: PrismaClient, actor: { id: string }, decisionId: string, now = new Date()) {
  return db.$transaction(async (tx) => {
    const decision = await tx.curationDecision.findUnique({ where: { id: decisionId } });
    if (!decision) throw notFound(`Decision ${decisionId}`);
    const problem = await undoProblem(tx, actor, decision, now);
    if (problem) throw new AppError(decision.curatorId === actor.id ? "CONFLICT" : "FORBIDDEN", problem);
    const task = await tx.task.findUniqueOrThrow({
      where: { id: decision.taskId },
      select: { version: true, curationStatus: true },
    });
    const version = await updateTaskAtVersion(tx, decision.taskId, task.version, {});
    await tx.curationDecision.delete({ where: { id: decisionId } });
    const curationStatus = await recomputeStatus(tx, decision.taskId);
    await tx.task.update({ where: { id: decision.taskId }, data: { curationStatus } });
    await auditLog(tx, {
      actorId: actor.id,
      entityType: "task",
      entityId: decision.taskId,
      action: "task.decision_undone",
      before: {
        curationStatus: task.curationStatus,
        version: task.version,
        verdict: decision.verdict,
        reasons: decision.reasons,
        comment: decision.comment,
      },
      after: {
        curationStatus,
        version,
        reverted: `the ${decision.verdict.toLowerCase().replace("_", " ")} decision of ${decision.createdAt.toISOString()}`,
      },
    });
    return { undone: { id: decision.id, taskId: decision.taskId, verdict: decision.verdict }, curationStatus, version };
  });
}
