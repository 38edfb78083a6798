import { z } from "zod";
import type { PrismaClient } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { enqueueJob } from "../jobs/enqueue-job";
import { BUILD_ENVIRONMENT } from "./build-job";

export const RequestBuildSchema = z.object({
  environmentId: z.string().min(1),
  /** defaults to the environment's current revision */
  revisionId: z.string().min(1).optional(),
  noCache: z.boolean().optional(),
});
export type RequestBuildInput = z.infer<typeof RequestBuildSchema>;

/** Creates a QUEUED Build and its build-environment job in one transaction. */
export async function requestBuild(db: PrismaClient, input: RequestBuildInput & { actorId: string | null }) {
  return db.$transaction(async (tx) => {
    const environment = await tx.environment.findUnique({
      where: { id: input.environmentId },
      select: { id: true, key: true, currentRevisionId: true },
    });
    if (!environment) throw notFound("The environment");
    const revisionId = input.revisionId ?? environment.currentRevisionId;
    if (!revisionId)
      throw new AppError(
        "UNPROCESSABLE",
        `Environment ${environment.key} has no revision to build yet: add a Dockerfile first`,
      );
    const revision = await tx.environmentRevision.findFirst({
      where: { id: revisionId, environmentId: environment.id },
      select: { id: true },
    });
    if (!revision) throw new AppError("BAD_REQUEST", "That revision does not belong to this environment");
    const build = await tx.build.create({ data: { revisionId, status: "QUEUED", requestedById: input.actorId } });
    await enqueueJob(
      tx,
      BUILD_ENVIRONMENT,
      { buildId: build.id, noCache: input.noCache },
      { jobKey: BUILD_ENVIRONMENT.keyFor(build.id) },
    );
    return build;
  });
}
