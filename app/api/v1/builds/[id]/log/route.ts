import { defineRoute } from "@/lib/http/define-route";
import { jobLogResponse } from "@/lib/live-logs/server-sent-events";
import { IdParams } from "@/lib/http/api-schemas";

export const dynamic = "force-dynamic";

/** The build's live log as server-sent events (log, status, end). */
export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "The build's live log as server-sent events (log, status, end)",
    params: IdParams,
    produces: "text/event-stream",
  },
  ({ db, request, url, params, actor }) => jobLogResponse(db, { buildId: params.id }, request, url, actor.id),
);
