import type { PrismaClient } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { removeQueuedJob } from "../jobs/enqueue-job";
import { BUILD_ENVIRONMENT } from "./build-job";

/** A queued build is cancelled at once; a running one is flagged and its worker stops it. */
export async function cancelBuild(db: PrismaClient, buildId: string) {
  return db.$transaction(async (tx) => {
    const queued = await tx.build.updateMany({
      where: { id: buildId, status: "QUEUED" },
      data: {
        status: "CANCELLED",
        cancelRequested: true,
        finishedAt: new Date(),
        errorMessage: "Cancelled before it started",
      },
    });
    if (queued.count) {
      await removeQueuedJob(tx, BUILD_ENVIRONMENT.keyFor(buildId));
      return tx.build.findUniqueOrThrow({ where: { id: buildId } });
    }
    const running = await tx.build.updateMany({
      where: { id: buildId, status: "RUNNING" },
      data: { cancelRequested: true },
    });
    const build = await tx.build.findUnique({ where: { id: buildId } });
    if (!build) throw notFound("The build");
    if (!running.count) throw new AppError("CONFLICT", `This build already finished (${build.status.toLowerCase()})`);
    return build;
  });
}
