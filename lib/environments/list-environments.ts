import { z } from "zod";
import type { Db, Prisma } from "../db/client";
import { TaskSource } from "../db/enums";
import { AppError } from "../errors/app-error";
import { listOf } from "../tasks/task-filters";

export const EnvironmentListQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => v || undefined),
  source: listOf(z.enum(TaskSource)),
  repository: listOf(z.string().regex(/^[^/\s]+\/[^/\s]+$/, "use owner/name")),
  sort: z.enum(["created_desc", "key_asc"]).default("created_desc"),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type EnvironmentListQuery = z.infer<typeof EnvironmentListQuerySchema>;

function whereFor(query: EnvironmentListQuery): Prisma.EnvironmentWhereInput {
  const and: Prisma.EnvironmentWhereInput[] = [];
  if (query.q) {
    and.push({
      OR: [
        { key: { contains: query.q, mode: "insensitive" } },
        { repository: { name: { contains: query.q, mode: "insensitive" } } },
      ],
    });
  }
  if (query.source.length) and.push({ source: { in: query.source } });
  if (query.repository.length) {
    and.push({ OR: query.repository.map((r) => ({ repository: { owner: r.split("/")[0], name: r.split("/")[1] } })) });
  }
  return { AND: and };
}

/** One page of environments with their current revision, latest build and task counts. */
export async function listEnvironments(db: Db, input: Partial<EnvironmentListQuery> | Record<string, unknown>) {
  const query = EnvironmentListQuerySchema.parse(input);
  const orderBy: Prisma.EnvironmentOrderByWithRelationInput[] =
    query.sort === "key_asc" ? [{ key: "asc" }] : [{ createdAt: "desc" }, { id: "desc" }];
  if (query.cursor && !(await db.environment.findUnique({ where: { id: query.cursor }, select: { id: true } }))) {
    throw new AppError("BAD_REQUEST", "The page cursor is not valid; reload the list from the first page");
  }
  const rows = await db.environment.findMany({
    where: whereFor(query),
    orderBy,
    take: query.limit + 1,
    ...(query.cursor ? { cursor: { id: query.cursor }, skip: 1 } : {}),
    select: {
      id: true,
      key: true,
      baseCommit: true,
      source: true,
      createdAt: true,
      updatedAt: true,
      repository: { select: { owner: true, name: true } },
      currentRevision: {
        select: {
          number: true,
          reason: true,
          createdAt: true,
          builds: {
            orderBy: { createdAt: "desc" },
            take: 1,
            select: { status: true, cacheHit: true, finishedAt: true },
          },
        },
      },
      _count: { select: { tasks: true, revisions: true } },
    },
  });
  const page = rows.slice(0, query.limit);
  const [total, statusCounts] = await Promise.all([
    db.environment.count({ where: whereFor(query) }),
    db.task.groupBy({
      by: ["environmentId", "curationStatus"],
      where: { environmentId: { in: page.map((e) => e.id) } },
      _count: { _all: true },
    }),
  ]);
  return {
    total,
    nextCursor: rows.length > query.limit ? page[page.length - 1].id : null,
    items: page.map(({ repository, currentRevision, _count, ...env }) => ({
      ...env,
      repository: `${repository.owner}/${repository.name}`,
      revision: currentRevision
        ? { number: currentRevision.number, reason: currentRevision.reason, createdAt: currentRevision.createdAt }
        : null,
      latestBuild: currentRevision?.builds[0] ?? null,
      taskCount: _count.tasks,
      revisionCount: _count.revisions,
      tasksByStatus: Object.fromEntries(
        statusCounts.filter((c) => c.environmentId === env.id).map((c) => [c.curationStatus, c._count._all]),
      ),
    })),
  };
}
export type EnvironmentListPage = Awaited<ReturnType<typeof listEnvironments>>;
