import { defineRoute, parseQuery } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { TaskFiltersSchema } from "@/lib/tasks/task-filters";
import { taskFacets } from "@/lib/tasks/task-facets";

export const GET = defineRoute(PERMISSIONS["tasks:read"], ({ url, actor }) => taskFacets(prisma, parseQuery(url, TaskFiltersSchema), { actorId: actor.id }));
