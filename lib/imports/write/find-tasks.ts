import type { Db } from "../../db/client";

/** Tasks by instance id, with what a result needs to hang off them (their environment's current revision). */
export async function findTasks(tx: Db, instanceIds: string[]) {
  const tasks = await tx.task.findMany({
    where: { instanceId: { in: [...new Set(instanceIds)] } },
    select: { id: true, instanceId: true, failToPass: true, passToPass: true, environment: { select: { currentRevisionId: true } } },
  });
  return new Map(tasks.map((t) => [t.instanceId, t]));
}

export const missingTask = (instanceId: string) =>
  ({ error: `no task "${instanceId}" has been imported; import its SWE-bench instances first` }) as const;
