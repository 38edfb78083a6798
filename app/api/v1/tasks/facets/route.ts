import { defineRoute } from "@/lib/http/define-route";
import { taskListContext } from "@/lib/http/task-list-context";
import { TaskFiltersSchema } from "@/lib/tasks/task-filters";
import { taskFacets } from "@/lib/tasks/task-facets";
import { FacetsSchema } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Counts per filter value for the current filters",
    query: TaskFiltersSchema,
    response: FacetsSchema,
  },
  async ({ db, query, actor }) => taskFacets(db, query, await taskListContext(db, actor, query)),
);
