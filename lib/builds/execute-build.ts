import { errorMessageOf } from "../errors/error-message";
import { claimRow, keepLease, LostLeaseError } from "../worker-runtime/row-lease";
import { requeueRow } from "../worker-runtime/requeue-row";
import { BUILD_JOB } from "./build-job";
import { retryAfterOutage } from "../worker-runtime/retry-after-outage";
import type { WorkerContext } from "../worker-runtime/worker-context";
import { buildImageForRow } from "./build-image-for-row";
import { revisionBuildContext } from "./revision-build-context";
import { storeBaseFiles } from "./base-files";
import { logFailure } from "../errors/log-failure";

/** The build-environment job: claim the Build row, build (or reuse) its image, record the outcome. */
export async function executeBuild(
  ctx: WorkerContext,
  buildId: string,
  options: { noCache?: boolean } = {},
): Promise<void> {
  if (!(await claimRow(ctx.db, "builds", buildId, ctx.workerId))) return;
  const lease = keepLease(ctx, "builds", buildId);
  ctx.running.add(buildId);
  const owned = { id: buildId, status: "RUNNING" as const, workerId: ctx.workerId };
  try {
    const build = await ctx.db.build.findUniqueOrThrow({
      where: { id: buildId },
      include: { revision: { include: { environment: true } } },
    });
    const context = revisionBuildContext(build.revision);
    if (build.revision.contextHash !== context.contextHash) {
      await ctx.db.environmentRevision.update({
        where: { id: build.revisionId },
        data: { contextHash: context.contextHash },
      });
    }
    await ctx.db.build.updateMany({ where: owned, data: { contextHash: context.contextHash, imageTag: context.tag } });
    const image = await buildImageForRow(ctx, buildId, context, {
      signal: lease.signal,
      noCache: options.noCache,
      memoryMb: build.revision.environment.memoryMb,
      cpus: build.revision.environment.cpus,
    });
    // the build has succeeded: a failure to read the base files leaves the diffs as hunks, nothing more
    await storeBaseFiles(ctx, {
      environmentId: build.revision.environmentId,
      image: image.tag,
      contextHash: context.contextHash,
    }).catch(logFailure(`storing the base files of build ${buildId}`));
  } catch (error) {
    if (error instanceof LostLeaseError || lease.state() === "lost") return;
    if (lease.state() === "shutdown") {
      await requeueRow(
        ctx.db,
        BUILD_JOB,
        buildId,
        `Worker ${ctx.workerId} stopped; the build was handed back to the queue`,
        { ownedBy: ctx.workerId },
      );
      return;
    }
    const outage = await retryAfterOutage(ctx, BUILD_JOB, buildId, error);
    if (outage === "retried") return;
    const cancelled = lease.state() === "cancelRequested";
    await ctx.db.build.updateMany({
      where: owned,
      data: {
        status: cancelled ? "CANCELLED" : "FAILED",
        errorMessage: cancelled ? "Cancelled by a curator" : (outage?.gaveUp ?? errorMessageOf(error)),
        finishedAt: new Date(),
      },
    });
  } finally {
    lease.stop();
    ctx.running.delete(buildId);
  }
}
