import { z } from "zod";
import type { Db, Prisma } from "../db/client";
import { visibleOnly, type BlindSet } from "../auth/blind";

// What the compare page's picker offers: any two trajectories can be compared. The ones on
// the same task as the trajectory at hand come first (the usual question: two agents on one
// issue); every other one is found by its task's instance id, its model or its own id.

export const CompareCandidatesQuerySchema = z.object({
  near: z.string().min(1).max(200).optional().describe("a trajectory id: its task's other trajectories come first"),
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .describe("words of a task's instance id, a model or a trajectory's external id"),
  limit: z.coerce.number().int().min(1).max(100).default(30),
});
export type CompareCandidatesQuery = z.infer<typeof CompareCandidatesQuerySchema>;

const CANDIDATE_SELECT = {
  id: true,
  externalId: true,
  role: true,
  model: true,
  stepCount: true,
  taskId: true,
  task: { select: { instanceId: true } },
} satisfies Prisma.TrajectorySelect;

export type CompareCandidate = {
  id: string;
  externalId: string;
  role: string;
  model: string | null;
  stepCount: number;
  taskId: string | null;
  instanceId: string | null;
};

const flatten = (row: Prisma.TrajectoryGetPayload<{ select: typeof CANDIDATE_SELECT }>): CompareCandidate => ({
  id: row.id,
  externalId: row.externalId,
  role: row.role,
  model: row.model,
  stepCount: row.stepCount,
  taskId: row.taskId,
  instanceId: row.task?.instanceId ?? null,
});

/** Words of a search, each to be found in the task's instance id, the model or the external id. */
function searchCondition(q: string | undefined): Prisma.TrajectoryWhereInput {
  const words = (q ?? "").split(/\s+/).filter(Boolean).slice(0, 5);
  return {
    AND: words.map((word) => ({
      OR: [
        { task: { instanceId: { contains: word, mode: "insensitive" as const } } },
        { model: { contains: word, mode: "insensitive" as const } },
        { externalId: { contains: word, mode: "insensitive" as const } },
      ],
    })),
  };
}

/** The picker's two lists: trajectories on `near`'s task first, then the others that match `q`; none on a task `blind` hides. */
export async function compareCandidates(db: Db, query: CompareCandidatesQuery, blind: BlindSet) {
  const near = query.near
    ? await db.trajectory.findUnique({ where: { id: query.near }, select: { id: true, taskId: true } })
    : null;
  const nearTask = near?.taskId ?? null;
  const search = searchCondition(query.q);
  const [sameTask, others] = await Promise.all([
    nearTask
      ? db.trajectory.findMany({
          where: { AND: [{ taskId: nearTask, id: { not: near?.id } }, search] },
          orderBy: [{ role: "asc" }, { createdAt: "asc" }],
          take: query.limit,
          select: CANDIDATE_SELECT,
        })
      : [],
    db.trajectory.findMany({
      where: { AND: [search, nearTask ? { OR: [{ taskId: { not: nearTask } }, { taskId: null }] } : {}] },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      take: query.limit,
      select: CANDIDATE_SELECT,
    }),
  ]);
  return {
    nearTaskId: nearTask,
    sameTask: await visibleOnly(blind, sameTask.map(flatten), (c) => c.taskId),
    others: await visibleOnly(blind, others.map(flatten), (c) => c.taskId),
  };
}
export type CompareCandidates = Awaited<ReturnType<typeof compareCandidates>>;
