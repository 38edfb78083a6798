import { defineRoute, parseBody } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { BulkUpdateSchema, bulkUpdateTasks } from "@/lib/tasks/bulk-update-tasks";

export const POST = defineRoute(PERMISSIONS["tasks:edit"], async ({ request, actor }) => bulkUpdateTasks(prisma, actor, await parseBody(request, BulkUpdateSchema)));
