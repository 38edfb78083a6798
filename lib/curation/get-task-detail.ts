import type { Db } from "../db/client";
import { getTask } from "../tasks/get-task";
import { approvalsRequired } from "./settings";
import { taskAsSeenBy, type BlindSet } from "../auth/blind";

/**
 * The task page's read: the task with its approvals counted against the approvals this
 * installation requires; without what judges it while the reader is blind on it (`blind`, lib/auth/blind.ts).
 */
export async function getTaskDetail(db: Db, idOrInstanceId: string, blind: BlindSet) {
  return taskAsSeenBy(blind, await getTask(db, idOrInstanceId, await approvalsRequired(db)));
}
