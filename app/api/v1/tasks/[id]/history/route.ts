import { defineRoute } from "@/lib/http/define-route";
import { taskHistory } from "@/lib/tasks/task-history";
import { HistoryEventSchema, IdParams } from "@/lib/http/api-schemas";
import { PageQuerySchema, pageOf, pageSchema } from "@/lib/http/pagination";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "The task's audit trail, newest first",
    params: IdParams,
    query: PageQuerySchema,
    response: pageSchema(HistoryEventSchema),
  },
  async ({ db, params, query, blind }) => pageOf(await taskHistory(db, params.id, blind), query, (event) => event.id),
);
