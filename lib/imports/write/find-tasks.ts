import type { Db } from "../../db/client";

/** Tasks by instance id, with what a result needs to hang off them (their environment's current revision). */
export async function findTasks(tx: Db, instanceIds: string[]) {
  const tasks = await tx.task.findMany({
    where: { instanceId: { in: [...new Set(instanceIds)] } },
    select: {
      id: true,
      instanceId: true,
      failToPass: true,
      passToPass: true,
      environment: { select: { currentRevisionId: true } },
    },
  });
  return new Map(tasks.map((t) => [t.instanceId, t]));
}

/** What to do about a record whose task is not here yet (tested: following it imports the record). */
export const missingTaskAdvice = (instanceId: string) =>
  `no task "${instanceId}" has been imported yet: import the dataset file that holds instance ${instanceId} (its SWE-bench instances, e.g. \`swe-curator import swe-bench-verified.jsonl\`), then import this file again`;

export const missingTask = (instanceId: string) => ({ error: missingTaskAdvice(instanceId) }) as const;
