import type { Db } from "../db/client";
import { notFound } from "../errors/app-error";

export async function getTask(db: Db, id: string) {
  const task = await db.task.findFirst({
    where: { OR: [{ id }, { instanceId: id }] },
    include: { environment: { include: { repository: true, currentRevision: true } } },
  });
  if (!task) throw notFound(`Task ${id}`);
  return task;
}
export type TaskDetail = Awaited<ReturnType<typeof getTask>>;
