import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { listAssignees } from "@/lib/tasks/list-assignees";
import { AssigneePageSchema } from "@/lib/http/api-schemas";
import { PageQuerySchema, pageOf } from "@/lib/http/pagination";

export const GET = defineRoute({ permission: "tasks:edit", summary: "People a task can be assigned to", query: PageQuerySchema, response: AssigneePageSchema }, async ({ query }) =>
  pageOf(await listAssignees(prisma), query, (user) => user.id),
);
