import type { Db, Prisma } from "../db/client";
import { notFound } from "../errors/app-error";

const BUILD_FIELDS = {
  id: true,
  status: true,
  cacheHit: true,
  contextHash: true,
  imageTag: true,
  imageId: true,
  durationMs: true,
  errorMessage: true,
  workerId: true,
  attempts: true,
  cancelRequested: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  revision: { select: { id: true, number: true } },
  _count: { select: { validationRuns: true } },
} satisfies Prisma.BuildSelect;

/** An environment's builds, newest first, with its current revision for the Build button. */
export async function listEnvironmentBuilds(db: Db, environmentId: string, options: { take?: number } = {}) {
  const environment = await db.environment.findUnique({
    where: { id: environmentId },
    select: { id: true, key: true, currentRevision: { select: { id: true, number: true, contextHash: true } } },
  });
  if (!environment) throw notFound("The environment");
  const builds = await db.build.findMany({ where: { revision: { environmentId } }, select: BUILD_FIELDS, orderBy: { createdAt: "desc" }, take: options.take ?? 30 });
  return { environment, builds, active: builds.some((build) => build.status === "QUEUED" || build.status === "RUNNING") };
}

export type EnvironmentBuilds = Awaited<ReturnType<typeof listEnvironmentBuilds>>;

export async function getBuild(db: Db, buildId: string) {
  const build = await db.build.findUnique({ where: { id: buildId }, select: { ...BUILD_FIELDS, log: true, revision: { select: { id: true, number: true, environmentId: true } } } });
  if (!build) throw notFound("That build");
  return build;
}
