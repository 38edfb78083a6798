import type { Db } from "../db/client";
import { getTask } from "../tasks/get-task";
import { approvalsRequired } from "./settings";

/** The task page's read: the task with its approvals counted against the approvals this installation requires. */
export async function getTaskDetail(db: Db, idOrInstanceId: string) {
  return getTask(db, idOrInstanceId, await approvalsRequired(db));
}
