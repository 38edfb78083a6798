import { z } from "zod";
import type { Db } from "../db/client";
import { CurationStatus, TaskSource } from "../db/client";

export const ListTasksQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
  status: z.enum(CurationStatus).optional(),
  source: z.enum(TaskSource).optional(),
});
export type ListTasksQuery = z.infer<typeof ListTasksQuerySchema>;

export async function listTasks(db: Db, query: ListTasksQuery) {
  const where = { curationStatus: query.status, source: query.source };
  const [total, rows] = await Promise.all([
    db.task.count({ where }),
    db.task.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: {
        id: true,
        instanceId: true,
        source: true,
        curationStatus: true,
        automatedVerdict: true,
        createdAt: true,
        environment: { select: { repository: { select: { owner: true, name: true } } } },
      },
    }),
  ]);
  return {
    total,
    page: query.page,
    pageSize: query.pageSize,
    items: rows.map(({ environment, ...task }) => ({ ...task, repository: `${environment.repository.owner}/${environment.repository.name}` })),
  };
}
export type TaskListPage = Awaited<ReturnType<typeof listTasks>>;
