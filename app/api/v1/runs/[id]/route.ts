import { defineRoute } from "@/lib/http/define-route";
import { getValidationRun } from "@/lib/runs/list-task-validations";
import { IdParams, RunSchema } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "One validation run with its per-test results",
    params: IdParams,
    response: RunSchema,
  },
  ({ db, params, blind }) => getValidationRun(db, params.id, blind),
);
