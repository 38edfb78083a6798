import type { Db } from "../db/client";
import { getTask } from "../tasks/get-task";
import { approvalsRequired } from "./settings";
import type { Actor } from "../auth/actor";
import { isBlindOn, withoutVerdict } from "../campaigns/blind";

/**
 * The task page's read: the task with its approvals counted against the approvals this
 * installation requires; without its verdict while `reader` is blind on it (lib/campaigns/blind.ts).
 */
/** Who reads: a signed-in person, or null for the product itself (the CLI, a worker); required so no page forgets blindness. */
export type Reader = Pick<Actor, "id" | "role"> | null;

export async function getTaskDetail(db: Db, idOrInstanceId: string, reader: Reader) {
  const task = await getTask(db, idOrInstanceId, await approvalsRequired(db));
  return reader && (await isBlindOn(db, reader, task.id)) ? withoutVerdict(task) : task;
}
