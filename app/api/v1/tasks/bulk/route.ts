import { defineRoute } from "@/lib/http/define-route";
import { BulkUpdateSchema, bulkUpdateTasks } from "@/lib/tasks/bulk-update-tasks";
import { AnyObject } from "@/lib/http/api-schemas";
import { requestValidation } from "@/lib/runs/request-validation";

export const POST = defineRoute(
  {
    permission: "tasks:edit",
    summary: "Validate, assign or label many tasks at once",
    body: BulkUpdateSchema,
    response: AnyObject,
  },
  ({ db, actor, body }) =>
    bulkUpdateTasks(db, actor, body, (taskId) => requestValidation(db, { taskId, actorId: actor.id })),
);
