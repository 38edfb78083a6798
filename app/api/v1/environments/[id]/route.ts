import { defineRoute } from "@/lib/http/define-route";
import { getEnvironment } from "@/lib/environments/get-environment";
import { EnvironmentSchema, IdParams } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "One environment with its revisions",
    params: IdParams,
    response: EnvironmentSchema,
  },
  ({ db, params, blind }) => getEnvironment(db, params.id, blind),
);
