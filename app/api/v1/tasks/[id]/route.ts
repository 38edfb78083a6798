import { defineRoute, parseBody } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { getTask } from "@/lib/tasks/get-task";
import { TaskUpdateSchema, updateTask } from "@/lib/tasks/update-task";

export const GET = defineRoute<{ id: string }>(PERMISSIONS["tasks:read"], ({ params }) => getTask(prisma, params.id));

export const PATCH = defineRoute<{ id: string }>(PERMISSIONS["tasks:edit"], async ({ request, actor, params }) =>
  updateTask(prisma, actor, params.id, await parseBody(request, TaskUpdateSchema)),
);
