import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { BulkUpdateSchema, bulkUpdateTasks } from "@/lib/tasks/bulk-update-tasks";
import { AnyObject } from "@/lib/http/api-schemas";

export const POST = defineRoute({ permission: "tasks:edit", summary: "Validate, assign or label many tasks at once", body: BulkUpdateSchema, response: AnyObject }, ({ actor, body }) =>
  bulkUpdateTasks(prisma, actor, body),
);
