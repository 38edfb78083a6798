import { z } from "zod";
import type { PrismaClient } from "../db/client";
import { Difficulty } from "../db/enums";
import { AppError, notFound } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import { taskConflict, updateTaskAtVersion } from "./task-version";
import { assertAssignable } from "./list-assignees";

const testIds = z.array(z.string().trim().min(1).max(1_000)).max(5_000);

export const TaskUpdateSchema = z.object({
  version: z.number().int().min(1),
  problemStatement: z.string().min(1, "the problem statement cannot be empty").max(200_000).optional(),
  hintsText: z.string().max(200_000).nullable().optional(),
  failToPass: testIds.optional(),
  passToPass: testIds.optional(),
  difficulty: z.enum(Difficulty).nullable().optional(),
  labels: z.array(z.string().trim().min(1).max(64)).max(50).optional(),
  assigneeId: z.string().min(1).nullable().optional(),
});
export type TaskUpdate = z.input<typeof TaskUpdateSchema>;

const EDITABLE = [
  "problemStatement",
  "hintsText",
  "failToPass",
  "passToPass",
  "difficulty",
  "labels",
  "assigneeId",
] as const;

/** A curator's edit of a task's own fields, at the version they saw; the audit keeps before and after of what changed. */
export async function updateTask(db: PrismaClient, actor: { id: string }, taskId: string, rawInput: TaskUpdate) {
  const input = TaskUpdateSchema.parse(rawInput);
  if (input.failToPass && input.failToPass.length === 0) {
    throw new AppError("UNPROCESSABLE", "A task needs at least one FAIL_TO_PASS test: it is what proves the fix");
  }
  if (input.assigneeId) await assertAssignable(db, input.assigneeId);
  return db.$transaction(async (tx) => {
    const task = await tx.task.findUnique({
      where: { id: taskId },
      select: { version: true, ...Object.fromEntries(EDITABLE.map((k) => [k, true])) },
    });
    if (!task) throw notFound(`Task ${taskId}`);
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const key of EDITABLE) {
      if (input[key] === undefined) continue;
      if (JSON.stringify(input[key]) === JSON.stringify((task as Record<string, unknown>)[key])) continue;
      before[key] = (task as Record<string, unknown>)[key];
      after[key] = input[key];
    }
    if (Object.keys(after).length === 0) {
      if (task.version !== input.version) throw await taskConflict(tx, taskId, input.version);
      return { version: task.version, changed: [] as string[] };
    }
    const version = await updateTaskAtVersion(tx, taskId, input.version, after);
    await auditLog(tx, {
      actorId: actor.id,
      entityType: "task",
      entityId: taskId,
      action: "task.edited",
      before: { ...before, version: task.version },
      after: { ...after, version },
    });
    return { version, changed: Object.keys(after) };
  });
}
