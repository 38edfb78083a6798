import { defineRoute } from "@/lib/http/define-route";
import { EnvironmentListQuerySchema, listEnvironments } from "@/lib/environments/list-environments";
import { EnvironmentPageSchema } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Environments, a page at a time",
    query: EnvironmentListQuerySchema,
    response: EnvironmentPageSchema,
  },
  ({ db, query }) => listEnvironments(db, query),
);
