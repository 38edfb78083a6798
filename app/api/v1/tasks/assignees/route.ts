import { defineRoute } from "@/lib/http/define-route";
import { listAssignees } from "@/lib/tasks/list-assignees";
import { AssigneePageSchema } from "@/lib/http/api-schemas";
import { PageQuerySchema, pageOf } from "@/lib/http/pagination";

export const GET = defineRoute(
  {
    permission: "tasks:edit",
    summary: "People a task can be assigned to",
    query: PageQuerySchema,
    response: AssigneePageSchema,
  },
  async ({ db, query }) => pageOf(await listAssignees(db), query, (user) => user.id),
);
