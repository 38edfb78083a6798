import type { FailureClass, Prisma, RunPhase } from "../db/client";
import { ensureImage } from "../builds/ensure-image";
import { storeBaseFiles } from "../builds/base-files";
import { revisionBuildContext } from "../builds/revision-build-context";
import { ImageBuildError } from "../docker/docker-errors";
import { runContainerLabels } from "../docker/container-labels";
import { errorMessageOf } from "../errors/error-message";
import { createLogSink, type LogSink } from "../worker-runtime/log-sink";
import { reapContainersOfRun } from "../worker-runtime/prune-docker";
import { claimRow, keepLease, LostLeaseError, type Lease } from "../worker-runtime/row-lease";
import { requeueRow } from "../worker-runtime/requeue-row";
import { VALIDATION_JOB } from "./validation-job";
import { retryAfterOutage } from "../worker-runtime/retry-after-outage";
import type { WorkerContext } from "../worker-runtime/worker-context";
import { evaluateRun, type RunEvaluation } from "../validation/evaluate-run";
import { guardCandidatePatch } from "../validation/guard-candidate-patch";
import { runnerLine } from "../validation/runner-markers";
import { settleGroupOfRun } from "./settle-validation-group";
import { reserveContainerMemory, type MemoryGrant } from "./memory-budget";
import { patchesFor, validationContainerFiles, VALIDATION_COMMAND } from "./validation-container";
import { logFailure } from "../errors/log-failure";
import { evalScriptFor } from "../environments/derived-eval-script";
import { specSourceOfRun, specTestCommand } from "../environments/spec-instance";

type OwnedWrite = Prisma.ValidationRunUncheckedUpdateManyInput;

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

const logParserOf = (metadata: unknown) => {
  const value = (metadata as { logParser?: unknown } | null)?.logParser;
  return typeof value === "string" ? value : null;
};

/**
 * The validate-task job: claim the run, make sure its image exists on this Docker host,
 * run the eval script in a locked-down container with the run's patches applied inside
 * it, evaluate the log and store results — then, if the group is complete, the task's
 * verdict. A cancel, a lost lease or a worker shutdown stops the container on the spot.
 */
export async function executeValidationRun(ctx: WorkerContext, runId: string): Promise<void> {
  if (!(await claimRow(ctx.db, "validation_runs", runId, ctx.workerId))) return;
  const lease = keepLease(ctx, "validation_runs", runId);
  ctx.running.add(runId);
  const started = Date.now();
  const owned = { id: runId, status: "RUNNING" as const, workerId: ctx.workerId };
  const write = async (data: OwnedWrite, db: Prisma.TransactionClient | WorkerContext["db"] = ctx.db) => {
    const { count } = await db.validationRun.updateMany({ where: owned, data });
    if (!count) throw new LostLeaseError("validation_runs", runId);
  };
  let sink: LogSink | undefined;
  let grant: MemoryGrant | undefined;
  let phase: RunPhase | null = null;
  const enterPhase = (next: RunPhase) => {
    if (phase === next) return;
    phase = next;
    // the phase is shown to curators only; a run whose lease was lost is not ours to describe
    void write({ phase: next }).catch(logFailure(`recording phase ${next} of run ${runId}`, { expected: isLostLease }));
  };

  try {
    const run = await ctx.db.validationRun.findUniqueOrThrow({
      where: { id: runId },
      include: {
        task: true,
        candidatePatch: true,
        revision: { include: { environment: { include: { repository: true } } } },
      },
    });
    const environment = run.revision.environment;
    // IMAGE and SPEC environments derive the eval script from the task; a recipe brings its own
    const spec = specSourceOfRun(run.task, environment);
    const evalScript = evalScriptFor(run.revision, run.task, specTestCommand(spec));
    if (run.attempts > 1 || run.outageRetries > 0) await reapContainersOfRun(ctx, runId);
    sink = await createLogSink({
      db: ctx.db,
      table: "validation_runs",
      id: runId,
      workerId: ctx.workerId,
      capBytes: ctx.config.runLogCapBytes,
      liveCapBytes: ctx.config.liveLogCapBytes,
      onFlushed: (text) => {
        if (text.includes(runnerLine.running)) enterPhase("RUNNING_TESTS");
        else if (text.includes(runnerLine.applying(""))) enterPhase("APPLYING_PATCHES");
      },
    });
    // a candidate never changes the tests that judge it: those parts are left out here, on the host
    const guard =
      run.kind === "CANDIDATE"
        ? guardCandidatePatch(run.candidatePatch?.patch ?? "", { testPatch: run.task.testPatch, evalScript })
        : undefined;
    if (guard?.protectedPaths.length)
      sink.write(
        `[swe-curator] left out of the candidate patch (it may not change the tests): ${guard.protectedPaths.join(", ")}\n`,
      );
    enterPhase("BUILDING_IMAGE");
    const image = await abortable(
      ensureImage(ctx, run.revision, { requestedById: run.requestedById, taskName: run.task.instanceId, spec }),
      lease.signal,
    );
    // what the result depends on, kept per run so the evidence matrix can say why a test flipped
    const engine = ctx.config.engineName ?? ctx.docker.endpoint;
    await write({ buildId: image.buildId, imageId: image.imageId, engine });
    sink.write(
      `[swe-curator] ${image.cacheHit ? "reusing image" : "built image"} ${image.tag} on ${ctx.docker.endpoint} (worker ${ctx.workerId})\n`,
    );
    // this task's base files the image has not given yet (a candidate imported after the build): best effort, for the diffs only
    await storeBaseFiles(ctx, {
      environmentId: environment.id,
      taskId: run.taskId,
      image: image.tag,
      contextHash: revisionBuildContext(run.revision).contextHash,
    }).catch(logFailure(`storing the base files of task ${run.taskId}`));
    enterPhase("STARTING_CONTAINER");

    const limits = {
      memoryMb: environment.memoryMb ?? ctx.config.limits.memoryMb,
      cpus: environment.cpus ?? ctx.config.limits.cpus,
      pids: ctx.config.limits.pids,
      diskMb: ctx.config.limits.diskMb,
      timeoutMs: (environment.timeoutSeconds ?? ctx.config.limits.timeoutSeconds) * 1000,
    };
    const memory = await reserveContainerMemory(ctx, limits.memoryMb);
    if ("never" in memory) throw new Error(memory.never);
    if ("wait" in memory) {
      await sink.close();
      await requeueRow(
        ctx.db,
        VALIDATION_JOB,
        runId,
        memory.wait,
        { ownedBy: ctx.workerId },
        { delayMs: ctx.config.outageRetryMs, refundAttempt: true },
      );
      return;
    }
    grant = memory.granted;
    const result = await ctx.docker.runContainer({
      image: image.tag,
      command: VALIDATION_COMMAND,
      // a candidate with nothing left after the guard runs the tests on the base code
      files: validationContainerFiles(
        patchesFor(run.kind, run.task, guard?.patch).filter(
          (patch) => patch.name !== "candidate" || patch.content.trim(),
        ),
        evalScript,
      ),
      labels: runContainerLabels({ runId, workerId: ctx.workerId, installation: ctx.installation }),
      // the repeat index, so an eval script can vary a seed or the test order between attempts
      env: { SWE_CURATOR_ATTEMPT: String(run.attempt) },
      limits,
      onOutput: sink.write,
      onCreated: (containerId) => (grant?.release(), write({ containerId })),
      signal: lease.signal,
    });
    if (result.timedOut)
      sink.write(`\n[swe-curator] killed after ${limits.timeoutMs / 1000} s: the environment's wall-clock limit\n`);
    if (result.cancelled)
      sink.write(
        `\n[swe-curator] stopped: ${lease.state() === "cancelRequested" ? "cancelled by a curator" : lease.state()}\n`,
      );
    await sink.close();
    if (result.cancelled || lease.state() !== "held") return await stopEarly(ctx, lease, runId, write, sink);

    enterPhase("COLLECTING_RESULTS");
    const { log, truncated } = sink.finalLog();
    const evaluation = evaluateRun({
      kind: run.kind,
      log,
      evalScript,
      failToPass: run.task.failToPass,
      passToPass: run.task.passToPass,
      container: result,
      logParser: logParserOf(environment.metadata),
      timeoutSeconds: limits.timeoutMs / 1000,
      memoryMb: limits.memoryMb,
      guard,
    });
    await storeResult(ctx, run, evaluation, {
      log,
      truncated,
      exitCode: result.exitCode,
      containerId: result.containerId,
      durationMs: Date.now() - started,
      write,
    });
  } catch (error) {
    await sink?.close();
    if (error instanceof LostLeaseError || lease.state() === "lost") return;
    if (lease.state() !== "held") return await stopEarly(ctx, lease, runId, write, sink);
    // the engine or the database went away under the run: never judged, handed back to run again later
    const outage = await retryAfterOutage(ctx, VALIDATION_JOB, runId, error);
    if (outage === "retried") return;
    const failureClass: FailureClass = error instanceof ImageBuildError ? "BUILD_ERROR" : "INFRA_ERROR";
    const message =
      error instanceof ImageBuildError
        ? `The image did not build: ${error.message}`
        : (outage?.gaveUp ?? errorMessageOf(error));
    await ctx.db
      .$transaction(async (tx) => {
        await write(
          {
            status: "FAILED",
            failureClass,
            errorMessage: message,
            phase: null,
            finishedAt: new Date(),
            durationMs: Date.now() - started,
            log: sink?.finalLog().log ?? null,
          },
          tx,
        );
        await settleGroupOfRun(tx, runId);
      })
      .catch((writeError) => {
        if (!(writeError instanceof LostLeaseError)) throw writeError;
      });
  } finally {
    grant?.release();
    lease.stop();
    ctx.running.delete(runId);
  }
}

const isLostLease = (error: unknown) => error instanceof LostLeaseError;

/** Cancel → CANCELLED; shutdown → back to the queue; lost → touch nothing. */
async function stopEarly(
  ctx: WorkerContext,
  lease: Lease,
  runId: string,
  write: (data: OwnedWrite) => Promise<void>,
  sink?: LogSink,
) {
  const state = lease.state();
  if (state === "lost") return;
  if (state === "shutdown") {
    await requeueRow(
      ctx.db,
      VALIDATION_JOB,
      runId,
      `Worker ${ctx.workerId} stopped; the run was handed back to the queue`,
      { ownedBy: ctx.workerId },
    );
    return;
  }
  await write({
    status: "CANCELLED",
    phase: null,
    finishedAt: new Date(),
    errorMessage: "Cancelled by a curator; the container was stopped",
    log: sink?.finalLog().log ?? null,
  }).catch(logFailure(`recording the cancel of run ${runId}`, { expected: isLostLease }));
}

async function storeResult(
  ctx: WorkerContext,
  run: { id: string; kind: string; candidatePatchId: string | null },
  evaluation: RunEvaluation,
  facts: {
    log: string;
    truncated: boolean;
    exitCode: number | null;
    containerId: string;
    durationMs: number;
    write: (data: OwnedWrite, db: Prisma.TransactionClient) => Promise<void>;
  },
) {
  // a run that never finished its tests FAILED as a job; one that did SUCCEEDED, whatever it showed
  const incomplete = evaluation.failureClass === "TIMEOUT" || evaluation.failureClass === "INFRA_ERROR";
  await ctx.db.$transaction(async (tx) => {
    await facts.write(
      {
        status: incomplete ? "FAILED" : "SUCCEEDED",
        phase: null,
        exitCode: facts.exitCode,
        markerExitCode: evaluation.markerExitCode,
        failureClass: evaluation.failureClass,
        flags: evaluation.flags,
        resolved: evaluation.resolved,
        touchedTestPaths: evaluation.touchedTestPaths,
        parserVersion: evaluation.parserVersion,
        errorMessage: evaluation.reason,
        log: facts.log,
        logTruncated: facts.truncated,
        containerId: facts.containerId,
        durationMs: facts.durationMs,
        finishedAt: new Date(),
      },
      tx,
    );
    await tx.testResult.deleteMany({ where: { runId: run.id } });
    await tx.testResult.createMany({ data: evaluation.testResults.map((result) => ({ runId: run.id, ...result })) });
    if (run.candidatePatchId && evaluation.resolved !== null) {
      await tx.candidatePatch.update({ where: { id: run.candidatePatchId }, data: { resolved: evaluation.resolved } });
    }
    await settleGroupOfRun(tx, run.id);
  });
}
