import type { PrismaClient } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { createValidationGroup, lockTask } from "./create-validation-group";
import { ACTIVE_STATUSES } from "./request-validation";
import { groupIdOf } from "./cancel-validation";

/**
 * Runs a finished group again with the same inputs (same revision, kinds, attempts,
 * candidate) as a new group; re-validate, by contrast, uses the current revision.
 */
export async function retryValidation(
  db: PrismaClient,
  input: ({ groupId: string } | { runId: string }) & { actorId: string | null },
) {
  return db.$transaction(async (tx) => {
    const groupId = await groupIdOf(tx, input);
    const first = await tx.validationRun.findFirst({ where: { groupId }, select: { taskId: true } });
    if (!first) throw notFound("That validation");
    await lockTask(tx, first.taskId);
    const runs = await tx.validationRun.findMany({
      where: { groupId },
      orderBy: [{ attempt: "asc" }, { kind: "asc" }],
    });
    if (runs.some((run) => (ACTIVE_STATUSES as readonly string[]).includes(run.status))) {
      throw new AppError("CONFLICT", "This validation is still queued or running; cancel it before retrying");
    }
    if (runs.some((run) => run.kind !== "CANDIDATE")) {
      const active = await tx.validationRun.count({
        where: { taskId: first.taskId, kind: { not: "CANDIDATE" }, status: { in: [...ACTIVE_STATUSES] } },
      });
      if (active) throw new AppError("CONFLICT", "Another validation of this task is queued or running");
    }
    return createValidationGroup(tx, {
      taskId: first.taskId,
      revisionId: runs[0].revisionId,
      specs: runs.map((run) => ({ kind: run.kind, attempt: run.attempt, candidatePatchId: run.candidatePatchId })),
      actorId: input.actorId,
    });
  });
}
