import type { PrismaClient } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { requestBuild } from "./request-build";

/** Builds the same revision again as a new Build (the failed one stays in the history). */
export async function retryBuild(
  db: PrismaClient,
  input: { buildId: string; actorId: string | null; noCache?: boolean },
) {
  const build = await db.build.findUnique({
    where: { id: input.buildId },
    select: { status: true, revisionId: true, revision: { select: { environmentId: true } } },
  });
  if (!build) throw notFound("That build");
  if (build.status === "QUEUED" || build.status === "RUNNING")
    throw new AppError("CONFLICT", "This build is still queued or running");
  return requestBuild(db, {
    environmentId: build.revision.environmentId,
    revisionId: build.revisionId,
    noCache: input.noCache,
    actorId: input.actorId,
  });
}
