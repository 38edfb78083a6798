import type { Db, PrismaClient } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { removeQueuedJob } from "../jobs/enqueue-job";
import { VALIDATE_TASK } from "./validation-job";

/**
 * Cancels every unfinished run of a group: queued runs at once (their jobs removed),
 * running ones by flagging the row — their worker notices at its next heartbeat, kills the
 * container and records CANCELLED.
 */
export async function cancelValidation(db: PrismaClient, input: { groupId: string } | { runId: string }) {
  return db.$transaction(async (tx) => {
    const groupId = await groupIdOf(tx, input);
    const runs = await tx.validationRun.findMany({ where: { groupId }, select: { id: true, status: true } });
    if (!runs.length) throw notFound("That validation");
    const queued = runs.filter((run) => run.status === "QUEUED").map((run) => run.id);
    const running = runs.filter((run) => run.status === "RUNNING").map((run) => run.id);
    if (!queued.length && !running.length)
      throw new AppError("CONFLICT", "This validation already finished; nothing to cancel");
    await tx.validationRun.updateMany({
      where: { id: { in: queued }, status: "QUEUED" },
      data: {
        status: "CANCELLED",
        cancelRequested: true,
        finishedAt: new Date(),
        errorMessage: "Cancelled before it started",
      },
    });
    for (const id of queued) await removeQueuedJob(tx, VALIDATE_TASK.keyFor(id));
    await tx.validationRun.updateMany({
      where: { id: { in: running }, status: "RUNNING" },
      data: { cancelRequested: true },
    });
    return { cancelled: queued.length, stopping: running.length };
  });
}

/** A group by its id, or the group of one of its runs. */
export async function groupIdOf(db: Db, input: { groupId: string } | { runId: string }): Promise<string> {
  if ("groupId" in input) return input.groupId;
  const run = await db.validationRun.findUnique({ where: { id: input.runId }, select: { groupId: true } });
  if (!run?.groupId) throw notFound("That validation run");
  return run.groupId;
}
