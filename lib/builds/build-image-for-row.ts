import { ImageBuildError } from "../docker/docker-errors";
import { LABEL_BUILD_ID, LABEL_CONTEXT_HASH } from "../docker/container-labels";
import { createLogSink } from "../worker-runtime/log-sink";
import { LostLeaseError } from "../worker-runtime/row-lease";
import type { WorkerContext } from "../worker-runtime/worker-context";
import type { ResolvedBuildContext } from "./revision-build-context";
import { pullMissingBaseImages, pushToRegistry } from "./image-travel";
import { logFailure } from "../errors/log-failure";

export type BuiltImage = { buildId: string; tag: string; imageId: string; cacheHit: boolean };

/**
 * Runs a Build row this worker holds (RUNNING, ours): reuses the image when its tag is
 * already on this Docker host, else builds it, streaming the log. Every write is guarded
 * by ownership. Throws ImageBuildError (the Dockerfile failed) or DockerUnavailableError.
 */
export async function buildImageForRow(
  ctx: WorkerContext,
  buildId: string,
  context: ResolvedBuildContext,
  options: { signal?: AbortSignal; noCache?: boolean; memoryMb?: number | null; cpus?: number | null } = {},
): Promise<BuiltImage> {
  const started = Date.now();
  const owned = { id: buildId, status: "RUNNING" as const, workerId: ctx.workerId };
  const finish = async (data: Parameters<typeof ctx.db.build.updateMany>[0]["data"]) => {
    const { count } = await ctx.db.build.updateMany({
      where: owned,
      data: { ...data, finishedAt: new Date(), durationMs: Date.now() - started },
    });
    if (!count) throw new LostLeaseError("builds", buildId);
  };

  const existing = options.noCache ? null : await ctx.docker.imageInfo(context.tag);
  if (existing) {
    await finish({
      status: "SUCCEEDED",
      cacheHit: true,
      imageId: existing.id,
      imageTag: context.tag,
      contextHash: context.contextHash,
      log: `Image ${context.tag} already on this Docker host; reused.\n`,
    });
    return { buildId, tag: context.tag, imageId: existing.id, cacheHit: true };
  }

  const sink = await createLogSink({
    db: ctx.db,
    table: "builds",
    id: buildId,
    workerId: ctx.workerId,
    capBytes: ctx.config.runLogCapBytes,
    liveCapBytes: ctx.config.liveLogCapBytes,
  });
  const signals = [
    AbortSignal.timeout(ctx.config.buildTimeoutSeconds * 1000),
    ...(options.signal ? [options.signal] : []),
  ];
  try {
    for (const image of await pullMissingBaseImages(ctx, context, AbortSignal.any(signals)))
      sink.write(`Pulled ${image} from the registry at ${ctx.config.registryHost}.\n`);
    if (context.network)
      sink.write(
        `[swe-curator] this spec build runs with the build network "${context.network}" ON (SPEC_BUILD_NETWORK_ENGINES allows it on this engine); validation runs stay without a network\n`,
      );
    const { imageId } = await ctx.docker.buildImage({
      tag: context.tag,
      dockerfile: context.dockerfile,
      contextFiles: context.contextFiles,
      buildArgs: context.buildArgs,
      labels: { [LABEL_CONTEXT_HASH]: context.contextHash, [LABEL_BUILD_ID]: buildId },
      // the same cgroup limits as a validation run of this environment, plus a disk cap per step
      limits: {
        memoryMb: options.memoryMb ?? ctx.config.limits.memoryMb,
        cpus: options.cpus ?? ctx.config.limits.cpus,
        pids: ctx.config.limits.pids,
        diskMb: ctx.config.buildDiskMb,
      },
      noCache: options.noCache,
      network: context.network,
      onOutput: sink.write,
      signal: AbortSignal.any(signals),
    });
    const pushed = await pushToRegistry(ctx, context.tag, AbortSignal.any(signals));
    if (pushed) sink.write(`${pushed}\n`);
    await sink.close();
    await finish({
      status: "SUCCEEDED",
      cacheHit: false,
      imageId,
      imageTag: context.tag,
      contextHash: context.contextHash,
      log: sink.finalLog().log,
    });
    return { buildId, tag: context.tag, imageId, cacheHit: false };
  } catch (error) {
    await sink.close();
    if (error instanceof ImageBuildError && signals[0].aborted) {
      throw new ImageBuildError(`The build exceeded its ${ctx.config.buildTimeoutSeconds} s limit`);
    }
    throw error;
  } finally {
    // the log is on the row whatever happened; callers record the failure itself
    await ctx.db.build
      .updateMany({ where: { ...owned, log: null }, data: { log: sink.finalLog().log } })
      .catch(logFailure(`storing the log of build ${buildId}`));
  }
}
