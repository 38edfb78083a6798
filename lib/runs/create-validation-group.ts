import { randomUUID } from "node:crypto";
import type { Db, RunKind } from "../db/client";
import { enqueueJob } from "../jobs/enqueue-job";
import { VALIDATE_TASK } from "./validation-job";
import { revisionImageHash } from "../builds/revision-image-hash";

export type RunSpec = { kind: RunKind; attempt: number; candidatePatchId?: string | null };

/** Inserts one group of QUEUED runs and a validate-task job per run, on the caller's transaction. */
export async function createValidationGroup(
  tx: Db,
  input: { taskId: string; revisionId: string; specs: RunSpec[]; actorId: string | null },
) {
  const groupId = randomUUID();
  const imageHash = await revisionImageHash(tx, input.revisionId);
  const runs = [];
  for (const spec of input.specs) {
    const run = await tx.validationRun.create({
      data: {
        taskId: input.taskId,
        revisionId: input.revisionId,
        kind: spec.kind,
        attempt: spec.attempt,
        candidatePatchId: spec.candidatePatchId ?? null,
        groupId,
        status: "QUEUED",
        requestedById: input.actorId,
      },
    });
    // controls first: a curator is waiting on them; candidate ground truth can trail
    await enqueueJob(
      tx,
      VALIDATE_TASK,
      { runId: run.id },
      { jobKey: VALIDATE_TASK.keyFor(run.id), priority: spec.kind === "CANDIDATE" ? 1 : 0, imageHash },
    );
    runs.push(run);
  }
  return { groupId, runs };
}

export async function lockTask(tx: Db, taskId: string) {
  await tx.$executeRaw`select id from tasks where id = ${taskId} for update`;
}
