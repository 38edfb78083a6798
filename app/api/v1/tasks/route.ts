import { defineRoute, parseQuery } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { ListTasksQuerySchema, listTasks } from "@/lib/tasks/list-tasks";

export const GET = defineRoute(PERMISSIONS["tasks:read"], ({ url, actor }) => listTasks(prisma, parseQuery(url, ListTasksQuerySchema), { actorId: actor.id }));
