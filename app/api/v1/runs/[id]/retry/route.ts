import { defineRoute } from "@/lib/http/define-route";
import { retryValidation } from "@/lib/runs/retry-validation";
import { IdParams, QueuedGroupSchema } from "@/lib/http/api-schemas";

/** Runs the run's group again with the same inputs, as a new group. */
export const POST = defineRoute(
  {
    permission: "jobs:run",
    summary: "Run the run's group again with the same inputs, as a new group",
    params: IdParams,
    response: QueuedGroupSchema,
    status: 202,
    idempotent: true,
  },
  ({ db, actor, params }) => retryValidation(db, { runId: params.id, actorId: actor.id }),
);
