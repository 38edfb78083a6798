import { defineRoute } from "@/lib/http/define-route";
import { IdParams } from "@/lib/http/api-schemas";
import { liveEventsResponse } from "@/lib/live-logs/server-sent-events";
import { stepReplayEvents } from "@/lib/trajectories/replay/read-step-replays";

export const dynamic = "force-dynamic";

/** The replay's progress (step k of n) as server-sent events, then end. */
export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "A step replay's progress as server-sent events (progress with done/total, end)",
    params: IdParams,
    produces: "text/event-stream",
  },
  ({ db, request, params, actor }) =>
    liveEventsResponse(stepReplayEvents(db, params.id, { signal: request.signal }), request, actor.id),
);
