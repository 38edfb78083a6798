import { defineRoute } from "@/lib/http/define-route";
import { getTaskDetail } from "@/lib/curation/get-task-detail";
import { TaskUpdateSchema, updateTask } from "@/lib/tasks/update-task";
import { IdParams, TaskSchema } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "One task with its patches, environment and runs",
    params: IdParams,
    response: TaskSchema,
  },
  ({ db, params, blind }) => getTaskDetail(db, params.id, blind),
);

export const PATCH = defineRoute(
  {
    permission: "tasks:edit",
    summary: "Edit a task (labels, assignee, difficulty …) at a known version",
    params: IdParams,
    body: TaskUpdateSchema,
    response: TaskSchema,
  },
  ({ db, actor, params, body }) => updateTask(db, actor, params.id, body),
);
