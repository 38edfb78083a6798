import { defineRoute } from "@/lib/http/define-route";
import { IdParams, StepReplaySchema } from "@/lib/http/api-schemas";
import { getStepReplay } from "@/lib/trajectories/replay/read-step-replays";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "A step replay: progress, then each replayed step beside its recorded output",
    params: IdParams,
    response: StepReplaySchema,
  },
  ({ db, params }) => getStepReplay(db, params.id),
);
