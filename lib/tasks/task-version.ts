import type { Db, Prisma } from "../db/client";
import { AppError, notFound } from "../errors/app-error";

// Optimistic concurrency on Task.version: a write names the version the curator saw; the
// UPDATE … WHERE version = seen either wins (and bumps it) or changes nothing. The loser
// gets a CONFLICT carrying what changed since, so the UI can show it and keep the input.

export type TaskChange = { action: string; actor: string | null; at: Date; before: unknown; after: unknown };
export type TaskConflictDetails = {
  entity: "task";
  taskId: string;
  yourVersion: number;
  currentVersion: number;
  current: Record<string, unknown>;
  changes: TaskChange[];
};

const CURRENT_FIELDS = {
  version: true,
  curationStatus: true,
  labels: true,
  difficulty: true,
  assigneeId: true,
  verdictOverride: true,
  problemStatement: true,
  hintsText: true,
  failToPass: true,
  passToPass: true,
  updatedAt: true,
} as const;

/** What happened to a task after the version a curator saw (from its audit trail). */
export async function changesSince(db: Db, taskId: string, version: number): Promise<TaskChange[]> {
  const events = await db.auditEvent.findMany({
    where: { entityType: "task", entityId: taskId },
    orderBy: { createdAt: "asc" },
    take: 200,
    include: { actor: { select: { name: true, email: true } } },
  });
  return events
    .filter((e) => {
      const after = e.after as { version?: number } | null;
      return typeof after?.version === "number" && after.version > version;
    })
    .map((e) => ({
      action: e.action,
      actor: e.actor?.name ?? e.actor?.email ?? null,
      at: e.createdAt,
      before: e.before,
      after: e.after,
    }));
}

export async function taskConflict(db: Db, taskId: string, yourVersion: number): Promise<AppError> {
  const current = await db.task.findUnique({ where: { id: taskId }, select: CURRENT_FIELDS });
  if (!current) return notFound(`Task ${taskId}`);
  const changes = await changesSince(db, taskId, yourVersion);
  const who = [...new Set(changes.map((c) => c.actor).filter(Boolean))].join(", ") || "someone else";
  const details: TaskConflictDetails = {
    entity: "task",
    taskId,
    yourVersion,
    currentVersion: current.version,
    current,
    changes,
  };
  return new AppError(
    "CONFLICT",
    `This task changed while you were working on it (${who} saved version ${current.version}; you had version ${yourVersion}). Your input was kept: review the changes and submit again.`,
    details,
  );
}

/** Applies `data` only if the task is still at `expectedVersion`, bumping the version; otherwise throws CONFLICT. */
export async function updateTaskAtVersion(
  db: Db,
  taskId: string,
  expectedVersion: number,
  data: Prisma.TaskUpdateManyMutationInput,
): Promise<number> {
  const { count } = await db.task.updateMany({
    where: { id: taskId, version: expectedVersion },
    data: { ...data, version: { increment: 1 } },
  });
  if (count === 0) throw await taskConflict(db, taskId, expectedVersion);
  return expectedVersion + 1;
}
