import type Docker from "dockerode";
import type { BuildImageOptions } from "./docker-engine";
import { createBuildCgroup, isLocalEngine, type BuildCgroup, type EngineCgroupInfo } from "./build-cgroup";
import {
  containerAlreadyGone,
  EngineStoppedError,
  ImageBuildError,
  isConnectionError,
  RecipeRefusedError,
} from "./docker-errors";
import { reviewDockerfile } from "./dockerfile-policy";
import { LABEL_MANAGED } from "./container-labels";
import { tarFiles } from "./tar-files";
import { whileEngineAnswers, type EngineConnection } from "./engine-connection";
import { imageConfig, imageInfo } from "./engine-inventory";
import { logFailure } from "../errors/log-failure";

// Building an image from a recipe: refuse what would reach outside, build with no network
// under the step limits, watch each step's disk, and tell a Dockerfile that failed from an
// engine that went away.

const CPU_PERIOD_US = 100_000;
const DISK_WATCH_EVERY_MS = 2_000;

type BuildEvent = { stream?: string; error?: string; errorDetail?: { message?: string }; aux?: { ID?: string } };

/** What the build stream said: the image it made, the error it reported, or why the stream broke. */
type BuildOutcome = { imageId?: string; failure?: string; streamError?: unknown };

/**
 * Refuses, before the daemon sees it, a recipe that would make the daemon download or pull:
 * its FROM images are looked up on this engine, so their ENV and ONBUILD triggers are read too.
 */
async function refuseOutsideReach(engine: EngineConnection, options: BuildImageOptions) {
  const { problems } = await reviewDockerfile(options.dockerfile, options.buildArgs, (reference) =>
    imageConfig(engine, reference),
  );
  if (problems.length) {
    for (const problem of problems) options.onOutput?.(`${problem}\n`);
    throw new RecipeRefusedError(problems);
  }
}

/** The daemon's build options: no network, no pull, our label, the step limits. */
function buildRequest(options: BuildImageOptions, cgroup: BuildCgroup): Docker.ImageBuildOptions {
  const { limits } = options;
  const memory = limits.memoryMb * 1024 * 1024;
  return {
    t: options.tag,
    // builds have no network either: the context must carry everything (a spec build an admin allowed one is the exception)
    networkmode: options.network ?? "none",
    pull: false,
    rm: true,
    forcerm: true,
    nocache: options.noCache ?? false,
    buildargs: options.buildArgs,
    labels: { [LABEL_MANAGED]: "true", ...options.labels },
    memory,
    memswap: memory,
    cpuperiod: CPU_PERIOD_US,
    cpuquota: Math.round(limits.cpus * CPU_PERIOD_US),
    ...(cgroup.parent ? { cgroupparent: cgroup.parent } : {}),
  } as Docker.ImageBuildOptions;
}

/** Follows the build's progress to its end, passing its output on. */
function followBuild(
  engine: EngineConnection,
  stream: NodeJS.ReadableStream,
  onOutput?: (text: string) => void,
): Promise<BuildOutcome> {
  const outcome: BuildOutcome = {};
  return new Promise((resolve) => {
    engine.docker.modem.followProgress(
      stream,
      (error) => {
        outcome.streamError = error ?? undefined;
        resolve(outcome);
      },
      (event: BuildEvent) => {
        if (event.stream) onOutput?.(event.stream);
        if (event.aux?.ID) outcome.imageId = event.aux.ID;
        // a failed build does not reject: the error arrives as a progress event
        if (event.error || event.errorDetail) {
          outcome.failure = event.errorDetail?.message || event.error || "build failed";
          onOutput?.(`${outcome.failure}\n`);
        }
      },
    );
  });
}

/** Stops a build whose running step's writable layer outgrows the disk limit (Docker has no quota on overlay2 without xfs). */
function watchStepDisk(
  engine: EngineConnection,
  cgroup: BuildCgroup,
  diskMb: number,
  stopBuild: (message: string) => void,
): NodeJS.Timeout {
  let busy = false;
  return setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      for (const id of cgroup.containerIds()) {
        const info = (await engine.docker
          .getContainer(id)
          .inspect({ size: true } as object)
          .catch(() => null)) as { SizeRw?: number } | null;
        if ((info?.SizeRw ?? 0) > diskMb * 1024 * 1024)
          stopBuild(`A build step wrote more than its ${diskMb} MB disk limit and was stopped`);
      }
    } finally {
      busy = false;
    }
  }, DISK_WATCH_EVERY_MS);
}

/** After a build broke off: was it the engine going away rather than the Dockerfile? */
async function engineLost(engine: EngineConnection, cause: unknown): Promise<EngineStoppedError | null> {
  if (isConnectionError(cause) || !(await engine.status()).reachable)
    return new EngineStoppedError(engine.endpoint, "build", cause);
  return null;
}

/** The image the build made, or the error that says why there is none. */
async function builtImage(
  engine: EngineConnection,
  options: BuildImageOptions,
  outcome: BuildOutcome,
  stoppedFor: string | undefined,
): Promise<{ imageId: string }> {
  const { failure, streamError } = outcome;
  if (options.signal?.aborted) throw new ImageBuildError("The build was cancelled");
  if (stoppedFor) throw new ImageBuildError(stoppedFor);
  if (streamError || failure || !outcome.imageId) {
    const lost = await engineLost(engine, streamError);
    if (lost) throw lost;
  }
  if (streamError) throw new ImageBuildError(`The build broke off: ${(streamError as Error).message}`);
  if (failure) throw new ImageBuildError(failure);
  const imageId = outcome.imageId ?? (await imageInfo(engine, options.tag))?.id;
  if (!imageId) throw new ImageBuildError(`The build finished but image ${options.tag} is missing`);
  return { imageId };
}

/** buildImage for one engine; the engine's cgroup facts are asked once and kept. */
export function createImageBuilder(engine: EngineConnection) {
  let cgroupInfo: Promise<EngineCgroupInfo> | undefined;
  const engineCgroupInfo = () =>
    (cgroupInfo ??= engine
      .call(() => engine.docker.info())
      .then(
        (info: { CgroupDriver?: string; CgroupVersion?: string }) => ({
          local: isLocalEngine(engine.endpoint),
          cgroupDriver: info.CgroupDriver,
          cgroupVersion: info.CgroupVersion,
        }),
        (error) => {
          cgroupInfo = undefined;
          throw error;
        },
      ));

  return async function buildImage(options: BuildImageOptions): Promise<{ imageId: string }> {
    await refuseOutsideReach(engine, options);
    const { limits } = options;
    const cgroup = createBuildCgroup(await engineCgroupInfo(), limits.pids);
    if (cgroup.unlimitedBecause)
      options.onOutput?.(`[swe-curator] build steps have no pids limit here: ${cgroup.unlimitedBecause}\n`);
    const context = tarFiles({ ...options.contextFiles, Dockerfile: options.dockerfile });
    let stream: NodeJS.ReadableStream;
    try {
      stream = await engine.call(() => engine.docker.buildImage(context, buildRequest(options, cgroup)));
    } catch (error) {
      await cgroup.remove();
      throw error;
    }
    // closing the connection makes the daemon stop the build and kill its running step
    const stop = (reason: string) => (stream as unknown as { destroy(error?: Error): void }).destroy(new Error(reason));
    let stoppedFor: string | undefined;
    const abort = () => stop("build cancelled");
    options.signal?.addEventListener("abort", abort, { once: true });
    const diskWatch = watchStepDisk(engine, cgroup, limits.diskMb, (message) => {
      stoppedFor = message;
      stop(message);
    });
    let outcome: BuildOutcome;
    try {
      outcome = await whileEngineAnswers(
        engine,
        followBuild(engine, stream, options.onOutput),
        (cause) => new EngineStoppedError(engine.endpoint, "build", cause),
      );
    } finally {
      clearInterval(diskWatch);
      options.signal?.removeEventListener("abort", abort);
      // a stopped build's running step is the daemon's to remove, but it does so lazily: reap it now
      for (const id of cgroup.containerIds())
        await engine.docker
          .getContainer(id)
          .remove({ force: true })
          .catch(logFailure(`removing build step container ${id}`, { expected: containerAlreadyGone }));
      await cgroup.remove();
    }
    return builtImage(engine, options, outcome, stoppedFor);
  };
}
