import type { Db } from "../db/client";
import { AppError } from "../errors/app-error";
import { can, rolesWith } from "../auth/permissions";

// Who may be given a task: whoever may decide it (lib/auth/permissions.ts), while active.
const ASSIGNEE_PERMISSION = "tasks:decide" as const;

/** People a task can be assigned to: active curators and admins, by name. */
export async function listAssignees(db: Db) {
  const users = await db.user.findMany({
    where: { disabled: false, role: { in: rolesWith(ASSIGNEE_PERMISSION) } },
    orderBy: [{ name: "asc" }, { email: "asc" }],
    select: { id: true, name: true, email: true },
  });
  return users.map((u) => ({ id: u.id, name: u.name ?? u.email }));
}

/** Refuses (422) an assignee who is not an active user allowed to decide tasks. */
export async function assertAssignable(db: Db, assigneeId: string) {
  const assignee = await db.user.findUnique({ where: { id: assigneeId }, select: { role: true, disabled: true } });
  if (!assignee || assignee.disabled) throw new AppError("UNPROCESSABLE", "The assignee is not an active user");
  if (!can(assignee.role, ASSIGNEE_PERMISSION))
    throw new AppError("UNPROCESSABLE", "Tasks can only be assigned to curators or admins");
}
