import { defineRoute } from "@/lib/http/define-route";
import { taskListContext } from "@/lib/http/task-list-context";
import { ListTasksQuerySchema, listTasks } from "@/lib/tasks/list-tasks";
import { TaskPageSchema } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Tasks matching the filters and search, a page at a time",
    query: ListTasksQuerySchema,
    response: TaskPageSchema,
  },
  async ({ db, query, actor }) => listTasks(db, query, await taskListContext(db, actor, query)),
);
