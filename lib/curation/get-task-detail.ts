import type { Db } from "../db/client";
import { getTask } from "../tasks/get-task";
import { approvalsRequired } from "./settings";
import { taskAsSeenBy, type BlindSet } from "../auth/blind";
import { taskEvalScript } from "../environments/task-eval-script";

/**
 * The task page's read: the task with its approvals counted against the approvals this
 * installation requires; without what judges it while the reader is blind on it (`blind`, lib/auth/blind.ts).
 */
export async function getTaskDetail(db: Db, idOrInstanceId: string, blind: BlindSet) {
  const task = await getTask(db, idOrInstanceId, await approvalsRequired(db));
  const revision = task.environment.currentRevision;
  // what a validation run of this task executes: derived per task for IMAGE and SPEC environments
  const evalScript = revision ? taskEvalScript(task, task.environment, revision) : null;
  return taskAsSeenBy(blind, { ...task, evalScript });
}
export type TaskDetail = Awaited<ReturnType<typeof getTaskDetail>>;
