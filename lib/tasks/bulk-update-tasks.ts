import { z } from "zod";
import type { PrismaClient } from "../db/client";
import { AppError } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import { assertAssignable } from "./list-assignees";

// Bulk actions act on the tasks' latest state (no version from the client: a curator
// selecting 300 rows cannot have seen each one's version); each task's change is audited.

export const BULK_LIMIT = 500;

export const BulkUpdateSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("assign"),
    taskIds: z.array(z.string()).min(1).max(BULK_LIMIT),
    assigneeId: z.string().nullable(),
  }),
  z.object({
    action: z.literal("label"),
    taskIds: z.array(z.string()).min(1).max(BULK_LIMIT),
    add: z.array(z.string().trim().min(1).max(64)).max(20).default([]),
    remove: z.array(z.string().trim().min(1).max(64)).max(20).default([]),
  }),
  z.object({ action: z.literal("validate"), taskIds: z.array(z.string()).min(1).max(BULK_LIMIT) }),
]);
export type BulkUpdate = z.input<typeof BulkUpdateSchema>;

/**
 * Queues one task's validation. lib/runs builds on lib/tasks, so the caller (the bulk route)
 * hands lib/runs' requestValidation in rather than this file importing it.
 */
export type QueueValidation = (taskId: string) => Promise<unknown>;

export type BulkResult = {
  matched: number;
  changed: number;
  missing: number;
  skipped?: { taskId: string; reason: string }[];
};

/** Queues a validation (both controls) per task; a task that cannot be validated now is reported, not fatal. */
async function validateEach(queueValidation: QueueValidation, taskIds: string[]): Promise<BulkResult> {
  const skipped: { taskId: string; reason: string }[] = [];
  let changed = 0;
  let missing = 0;
  for (const taskId of taskIds) {
    try {
      await queueValidation(taskId);
      changed++;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === "NOT_FOUND") missing++;
      else skipped.push({ taskId, reason: error.message });
    }
  }
  return { matched: taskIds.length - missing, changed, missing, skipped };
}

export async function bulkUpdateTasks(
  db: PrismaClient,
  actor: { id: string },
  rawInput: BulkUpdate,
  queueValidation: QueueValidation,
): Promise<BulkResult> {
  const input = BulkUpdateSchema.parse(rawInput);
  if (input.action === "validate") return validateEach(queueValidation, input.taskIds);
  if (input.action === "assign" && input.assigneeId) await assertAssignable(db, input.assigneeId);
  if (input.action === "label" && input.add.length + input.remove.length === 0)
    throw new AppError("UNPROCESSABLE", "Name a label to add or remove");
  return db.$transaction(async (tx) => {
    const tasks = await tx.task.findMany({
      where: { id: { in: input.taskIds } },
      select: { id: true, labels: true, assigneeId: true, version: true },
    });
    let changed = 0;
    for (const task of tasks) {
      const data =
        input.action === "assign"
          ? task.assigneeId === input.assigneeId
            ? null
            : { assigneeId: input.assigneeId }
          : (() => {
              const labels = [
                ...new Set([...task.labels.filter((l) => !input.remove.includes(l)), ...input.add]),
              ].sort();
              return JSON.stringify(labels) === JSON.stringify([...task.labels].sort()) ? null : { labels };
            })();
      if (!data) continue;
      await tx.task.update({ where: { id: task.id }, data: { ...data, version: { increment: 1 } } });
      const before = input.action === "assign" ? { assigneeId: task.assigneeId } : { labels: task.labels };
      await auditLog(tx, {
        actorId: actor.id,
        entityType: "task",
        entityId: task.id,
        action: `task.bulk_${input.action}`,
        before: { ...before, version: task.version },
        after: { ...data, version: task.version + 1 },
      });
      changed++;
    }
    return { matched: tasks.length, changed, missing: input.taskIds.length - tasks.length };
  });
}
