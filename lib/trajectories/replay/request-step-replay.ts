import type { PrismaClient } from "../../db/client";
import { AppError, notFound } from "../../errors/app-error";
import { enqueueJob } from "../../jobs/enqueue-job";
import { REPLAY_STEP } from "./replay-job";
import { validationReadiness } from "../../environments/validation-readiness";
import { isReplayTarget, replayActionOf } from "./replay-actions";

/** A replay runs at most this many actions: beyond, the step is too far into the trajectory to replay on demand. */
export const MAX_REPLAY_ACTIONS = 300;

/** A running replay whose worker has not beaten for this long is taken as lost: asking again starts a new one. */
const LOST_AFTER_MS = 2 * 60_000;

/**
 * Queues a replay of a trajectory's actions up to and including one step, in a fresh container
 * of its task's environment. The step must run a command or write a file; the task's
 * environment must be ready to run (the same readiness a validation needs). A replay of the
 * same step already queued or running is answered instead of a second one.
 */
export async function requestStepReplay(
  db: PrismaClient,
  input: { trajectoryId: string; stepIndex: number; actorId: string | null },
) {
  return db.$transaction(async (tx) => {
    const trajectory = await tx.trajectory.findUnique({
      where: { id: input.trajectoryId },
      select: {
        id: true,
        task: {
          select: {
            instanceId: true,
            environment: { select: { key: true, currentRevisionId: true, imageSource: true, imageReference: true } },
          },
        },
      },
    });
    if (!trajectory) throw notFound(`Trajectory ${input.trajectoryId}`);
    const step = await tx.trajectoryStep.findUnique({
      where: { trajectoryId_index: { trajectoryId: trajectory.id, index: input.stepIndex } },
      select: { index: true, action: true, metadata: true },
    });
    if (!step) throw notFound(`Step ${input.stepIndex + 1} of trajectory ${trajectory.id}`);
    if (!trajectory.task)
      throw new AppError(
        "UNPROCESSABLE",
        "This trajectory is not linked to a task, so there is no environment to replay it in; import its task first",
      );
    const readiness = validationReadiness(trajectory.task.environment, trajectory.task.instanceId);
    if (!readiness.ready) throw new AppError("UNPROCESSABLE", readiness.missing);
    if (!trajectory.task.environment.currentRevisionId)
      throw new AppError(
        "UNPROCESSABLE",
        `Environment ${trajectory.task.environment.key} has no revision to build; add its Dockerfile first`,
      );
    const target = replayActionOf(step);
    if (!isReplayTarget(target))
      throw new AppError(
        "UNPROCESSABLE",
        `Step ${step.index + 1} cannot be replayed (${"reason" in target ? target.reason : "no command"}); pick a step that runs a shell command or edits a file`,
      );
    const running = await tx.stepReplay.findFirst({
      where: {
        trajectoryId: trajectory.id,
        stepIndex: step.index,
        OR: [{ status: "QUEUED" }, { status: "RUNNING", heartbeatAt: { gt: new Date(Date.now() - LOST_AFTER_MS) } }],
      },
      select: { id: true },
    });
    if (running) return { id: running.id, queued: false };
    const actionsTotal = await countActionsUpTo(tx, trajectory.id, step.index);
    if (actionsTotal > MAX_REPLAY_ACTIONS) {
      throw new AppError(
        "UNPROCESSABLE",
        `Step ${step.index + 1} comes after ${actionsTotal} commands and edits; a replay runs at most ${MAX_REPLAY_ACTIONS}, so pick an earlier step`,
      );
    }
    const replay = await tx.stepReplay.create({
      data: { trajectoryId: trajectory.id, stepIndex: step.index, actionsTotal, requestedById: input.actorId },
      select: { id: true },
    });
    await enqueueJob(tx, REPLAY_STEP, { replayId: replay.id }, { jobKey: REPLAY_STEP.keyFor(replay.id) });
    return { id: replay.id, queued: true };
  });
}

type StepReader = Pick<PrismaClient, "trajectoryStep">;

/** The commands and edits among steps 0..index (what the replay runs and counts as "step k of n"). */
async function countActionsUpTo(db: StepReader, trajectoryId: string, index: number): Promise<number> {
  const steps = await db.trajectoryStep.findMany({
    where: { trajectoryId, index: { lte: index } },
    select: { index: true, action: true, metadata: true },
    orderBy: { index: "asc" },
  });
  return steps.map(replayActionOf).filter(isReplayTarget).length;
}
