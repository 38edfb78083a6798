import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { TaskFiltersSchema } from "@/lib/tasks/task-filters";
import { taskFacets } from "@/lib/tasks/task-facets";
import { FacetsSchema } from "@/lib/http/api-schemas";

export const GET = defineRoute({ permission: "tasks:read", summary: "Counts per filter value for the current filters", query: TaskFiltersSchema, response: FacetsSchema }, ({ query, actor }) =>
  taskFacets(prisma, query, { actorId: actor.id }),
);
