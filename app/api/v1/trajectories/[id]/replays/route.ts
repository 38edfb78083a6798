import { defineRoute } from "@/lib/http/define-route";
import { IdParams, StepReplayListSchema } from "@/lib/http/api-schemas";
import { listStepReplays } from "@/lib/trajectories/replay/read-step-replays";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "The latest replay of each replayed step of a trajectory, with its results",
    params: IdParams,
    response: StepReplayListSchema,
  },
  async ({ db, params }) => ({ items: await listStepReplays(db, params.id) }),
);
