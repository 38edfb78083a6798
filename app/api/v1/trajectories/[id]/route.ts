import { defineRoute } from "@/lib/http/define-route";
import { getTrajectory } from "@/lib/trajectories/get-trajectory";
import { IdParams, TrajectorySchema } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  { permission: "tasks:read", summary: "One agent trajectory", params: IdParams, response: TrajectorySchema },
  ({ db, params, blind }) => getTrajectory(db, params.id, blind),
);
