import type { Db } from "../db/client";
import { notFound } from "../errors/app-error";
import { visibleOnly, type BlindSet } from "../auth/blind";

const author = { select: { id: true, name: true, email: true } } as const;

/** An environment with every revision (newest first), its recent builds and its tasks' ids (but those `blind` hides: their verdicts are listed). */
export async function getEnvironment(db: Db, idOrKey: string, blind: BlindSet) {
  const env = await db.environment.findFirst({
    where: { OR: [{ id: idOrKey }, { key: idOrKey }] },
    include: {
      repository: true,
      currentRevision: { include: { author } },
      revisions: {
        orderBy: { number: "desc" },
        include: {
          author,
          builds: {
            orderBy: { createdAt: "desc" },
            take: 3,
            select: {
              id: true,
              status: true,
              cacheHit: true,
              durationMs: true,
              errorMessage: true,
              createdAt: true,
              finishedAt: true,
            },
          },
        },
      },
      tasks: {
        orderBy: { instanceId: "asc" },
        take: 200,
        select: { id: true, instanceId: true, curationStatus: true, automatedVerdict: true, failureClass: true },
      },
      _count: { select: { tasks: true } },
    },
  });
  if (!env) throw notFound(`Environment ${idOrKey}`);
  return { ...env, tasks: await visibleOnly(blind, env.tasks, (task) => task.id) };
}
export type EnvironmentDetail = Awaited<ReturnType<typeof getEnvironment>>;
