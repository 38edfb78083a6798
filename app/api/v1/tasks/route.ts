import { defineRoute, parseQuery } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { ListTasksQuerySchema, listTasks } from "@/lib/tasks/list-tasks";

export const GET = defineRoute("VIEWER", ({ url }) => listTasks(prisma, parseQuery(url, ListTasksQuerySchema)));
