import type { Db, Prisma } from "../db/client";
import { notFound } from "../errors/app-error";
import { keysetPage, PageQuerySchema, type PageQuery } from "../db/keyset-page";

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

/** An environment's builds, newest first, a page at a time, with its current revision for the Build button. */
export async function listEnvironmentBuilds(db: Db, environmentId: string, page: Partial<PageQuery> = {}) {
  const environment = await db.environment.findUnique({
    where: { id: environmentId },
    select: { id: true, key: true, currentRevision: { select: { id: true, number: true, contextHash: true } } },
  });
  if (!environment) throw notFound("The environment");
  const where = { revision: { environmentId } } satisfies Prisma.BuildWhereInput;
  const [builds, running] = await Promise.all([
    keysetPage(PageQuerySchema.parse(page), (args) =>
      db.build.findMany({ where, select: BUILD_FIELDS, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...args }),
    ),
    // "active" is about the environment, not the page shown: a queued build may be on no page yet
    db.build.findFirst({ where: { ...where, status: { in: ["QUEUED", "RUNNING"] } }, select: { id: true } }),
  ]);
  return { environment, ...builds, active: running !== null };
}

export type EnvironmentBuilds = Awaited<ReturnType<typeof listEnvironmentBuilds>>;

export async function getBuild(db: Db, buildId: string) {
  const build = await db.build.findUnique({
    where: { id: buildId },
    select: { ...BUILD_FIELDS, log: true, revision: { select: { id: true, number: true, environmentId: true } } },
  });
  if (!build) throw notFound("That build");
  return build;
}
