import { defineRoute } from "@/lib/http/define-route";
import { jobLogResponse } from "@/lib/live-logs/server-sent-events";
import { IdParams } from "@/lib/http/api-schemas";
import { requireRunReadable } from "@/lib/runs/list-task-validations";

export const dynamic = "force-dynamic";

/** The run's live log as server-sent events (log, status with phase, end). */
export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "The run's live log as server-sent events (log, status with phase, end)",
    params: IdParams,
    produces: "text/event-stream",
  },
  async ({ db, request, url, params, actor, blind }) => {
    await requireRunReadable(db, params.id, blind);
    return jobLogResponse(db, { runId: params.id }, request, url, actor.id);
  },
);
