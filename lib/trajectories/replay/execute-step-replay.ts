import type { Prisma } from "../../db/client";
import { ensureImage } from "../../builds/ensure-image";
import { replayContainerLabels } from "../../docker/container-labels";
import { ImageBuildError } from "../../docker/docker-errors";
import { errorMessageOf } from "../../errors/error-message";
import { logFailure } from "../../errors/log-failure";
import { specSourceOfRun } from "../../environments/spec-instance";
import type { WorkerContext } from "../../worker-runtime/worker-context";
import { isReplayTarget, replayActionOf } from "./replay-actions";
import { compareReplay, endedActions } from "./replay-output";
import { replayMarkers, replayScript } from "./replay-script";

/** The replay's output kept in memory to cut into steps; beyond it a step's output is cut short. */
const OUTPUT_CAP_CHARS = 4 * 1024 * 1024;

async function claimReplay(ctx: WorkerContext, id: string): Promise<boolean> {
  const { count } = await ctx.db.stepReplay.updateMany({
    where: { id, status: "QUEUED", cancelRequested: false },
    data: {
      status: "RUNNING",
      workerId: ctx.workerId,
      heartbeatAt: new Date(),
      startedAt: new Date(),
      attempts: { increment: 1 },
    },
  });
  return count === 1;
}

async function loadReplay(ctx: WorkerContext, id: string) {
  const replay = await ctx.db.stepReplay.findUniqueOrThrow({
    where: { id },
    include: {
      trajectory: {
        include: {
          task: {
            include: {
              environment: {
                include: {
                  repository: true,
                  currentRevision: { include: { environment: { include: { repository: true } } } },
                },
              },
            },
          },
        },
      },
    },
  });
  const task = replay.trajectory.task;
  const revision = task?.environment.currentRevision;
  if (!task || !revision)
    throw new Error("The trajectory's task or its environment's revision was removed after the replay was asked for");
  const steps = await ctx.db.trajectoryStep.findMany({
    where: { trajectoryId: replay.trajectoryId, index: { lte: replay.stepIndex } },
    select: { index: true, action: true, metadata: true, observation: true },
    orderBy: { index: "asc" },
  });
  return { replay, task, revision, steps };
}

/** A progress writer that keeps the row's "step k of n" and heartbeat current without piling up writes. */
function progressWriter(ctx: WorkerContext, id: string) {
  let written = 0;
  let wanted = 0;
  let chain: Promise<void> = Promise.resolve();
  const write = () => {
    if (wanted === written) return;
    const next = wanted;
    chain = chain
      .then(() =>
        ctx.db.stepReplay.updateMany({
          where: { id, workerId: ctx.workerId },
          data: { actionsDone: next, heartbeatAt: new Date() },
        }),
      )
      .then(() => void (written = next))
      .catch(logFailure(`recording the progress of replay ${id}`));
  };
  // the prune timer removes a container whose row has a stale heartbeat: beat while a long step runs
  const beat = setInterval(
    () =>
      void ctx.db.stepReplay
        .updateMany({ where: { id, workerId: ctx.workerId }, data: { heartbeatAt: new Date() } })
        .catch(logFailure(`heartbeat of replay ${id}`)),
    ctx.config.heartbeatMs,
  );
  return {
    set(done: number) {
      wanted = done;
      write();
    },
    async stop() {
      clearInterval(beat);
      await chain;
    },
  };
}

const finish = (ctx: WorkerContext, id: string, data: Prisma.StepReplayUpdateManyMutationInput) =>
  ctx.db.stepReplay.updateMany({
    where: { id, workerId: ctx.workerId, status: "RUNNING" },
    data: { ...data, finishedAt: new Date() },
  });

/**
 * The replay-step job: claim the row, get the environment's image (reused or built as a
 * validation would), run the trajectory's commands and edits up to the step in one fresh
 * container with the validation sandbox (lib/docker: no network, limits, read-only root),
 * keep "step k of n" on the row while it runs, then store each step beside its recording.
 */
export async function executeStepReplay(ctx: WorkerContext, id: string): Promise<void> {
  if (!(await claimReplay(ctx, id))) return;
  const progress = progressWriter(ctx, id);
  try {
    const { replay, task, revision, steps } = await loadReplay(ctx, id);
    const environment = revision.environment;
    const actions = steps.map(replayActionOf);
    const markers = replayMarkers();
    const script = replayScript(actions, markers);
    const image = await ensureImage(ctx, revision, {
      requestedById: replay.requestedById,
      taskName: task.instanceId,
      spec: specSourceOfRun(task, environment),
    });
    const timeoutMs = (environment.timeoutSeconds ?? ctx.config.limits.timeoutSeconds) * 1000;
    let log = "";
    const result = await ctx.docker.runContainer({
      image: image.tag,
      command: script.command,
      files: script.files,
      labels: replayContainerLabels({ replayId: id, workerId: ctx.workerId, installation: ctx.installation }),
      limits: {
        memoryMb: environment.memoryMb ?? ctx.config.limits.memoryMb,
        cpus: environment.cpus ?? ctx.config.limits.cpus,
        pids: ctx.config.limits.pids,
        diskMb: ctx.config.limits.diskMb,
        timeoutMs,
      },
      onOutput: (text) => {
        if (log.length < OUTPUT_CAP_CHARS) log += text.slice(0, OUTPUT_CAP_CHARS - log.length);
        progress.set(endedActions(log, markers));
      },
      signal: ctx.shutdownSignal,
    });
    await progress.stop();
    const total = actions.filter(isReplayTarget).length;
    const done = endedActions(log, markers);
    const stoppedBy = result.timedOut
      ? `the replay reached the environment's time limit of ${timeoutMs / 1000} s during this step`
      : result.cancelled
        ? "the worker stopped during the replay"
        : result.oomKilled
          ? `the container ran out of its ${environment.memoryMb ?? ctx.config.limits.memoryMb} MB of memory`
          : null;
    const results = compareReplay(
      actions,
      new Map(steps.map((step) => [step.index, step.observation])),
      log,
      markers,
      stoppedBy,
    );
    const stopped = results.find((step) => step.outcome === "timed-out");
    const errorMessage = stoppedBy
      ? `The replay stopped at step ${(stopped?.index ?? replay.stepIndex) + 1} (${done} of ${total} actions done): ${stoppedBy}. The steps before it are shown.`
      : done < total
        ? `The replay's shell ended after ${done} of ${total} actions (exit code ${result.exitCode}); a command may have run \`exit\`.`
        : null;
    await finish(ctx, id, {
      status: errorMessage ? "FAILED" : "SUCCEEDED",
      actionsDone: done,
      results: results as unknown as Prisma.InputJsonValue,
      errorMessage,
    });
  } catch (error) {
    await progress.stop();
    const message =
      error instanceof ImageBuildError
        ? `The environment's image did not build: ${error.message}`
        : `The replay could not run: ${errorMessageOf(error)}`;
    await finish(ctx, id, { status: "FAILED", errorMessage: message });
  }
}
