import { z } from "zod";
import type { PrismaClient } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { createValidationGroup, lockTask, type RunSpec } from "./create-validation-group";
import { validationReadiness } from "../environments/validation-readiness";

export const MAX_REPEATS = 5;

export const RequestValidationSchema = z.object({
  /** attempts per control; more than one flags FLAKY tests when attempts disagree */
  repeats: z.coerce.number().int().min(1).max(MAX_REPEATS).default(1),
  /** run an agent's patch instead of the controls, to record its ground truth */
  candidatePatchId: z.string().min(1).optional(),
});
export type RequestValidationInput = z.infer<typeof RequestValidationSchema>;

export const ACTIVE_STATUSES = ["QUEUED", "RUNNING"] as const;

/**
 * Queues a validation of a task against its environment's current revision: a negative
 * and a positive control (× repeats), or one candidate-patch run. Rows and jobs commit together.
 */
export async function requestValidation(
  db: PrismaClient,
  input: Partial<RequestValidationInput> & { taskId: string; actorId: string | null },
) {
  const { repeats, candidatePatchId } = RequestValidationSchema.parse(input);
  return db.$transaction(async (tx) => {
    await lockTask(tx, input.taskId);
    const task = await tx.task.findUnique({
      where: { id: input.taskId },
      include: {
        environment: { select: { key: true, currentRevisionId: true, imageSource: true, imageReference: true } },
      },
    });
    if (!task) throw notFound("The task");
    const readiness = validationReadiness(task.environment, task.instanceId);
    if (!readiness.ready) throw new AppError("UNPROCESSABLE", readiness.missing);
    const revisionId = task.environment.currentRevisionId;
    if (!revisionId)
      throw new AppError(
        "UNPROCESSABLE",
        `Environment ${task.environment.key} has no revision (Dockerfile and eval script) to validate with`,
      );
    if (candidatePatchId) {
      const candidate = await tx.candidatePatch.findFirst({
        where: { id: candidatePatchId, taskId: task.id },
        select: { id: true },
      });
      if (!candidate) throw new AppError("BAD_REQUEST", "That candidate patch does not belong to this task");
    } else {
      const active = await tx.validationRun.count({
        where: { taskId: task.id, kind: { not: "CANDIDATE" }, status: { in: [...ACTIVE_STATUSES] } },
      });
      if (active)
        throw new AppError(
          "CONFLICT",
          "A validation of this task is already queued or running; wait for it or cancel it first",
        );
    }
    const specs: RunSpec[] = candidatePatchId
      ? Array.from({ length: repeats }, (_, attempt) => ({ kind: "CANDIDATE" as const, attempt, candidatePatchId }))
      : Array.from({ length: repeats }, (_, attempt) => [
          { kind: "NEGATIVE_CONTROL" as const, attempt },
          { kind: "POSITIVE_CONTROL" as const, attempt },
        ]).flat();
    return createValidationGroup(tx, { taskId: task.id, revisionId, specs, actorId: input.actorId });
  });
}
