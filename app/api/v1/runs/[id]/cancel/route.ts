import { defineRoute } from "@/lib/http/define-route";
import { cancelValidation } from "@/lib/runs/cancel-validation";
import { AnyObject, IdParams } from "@/lib/http/api-schemas";

/** Cancels the run's whole group (a validation is its controls together). */
export const POST = defineRoute(
  { permission: "jobs:run", summary: "Cancel the run's whole validation group", params: IdParams, response: AnyObject },
  ({ db, params }) => cancelValidation(db, { runId: params.id }),
);
