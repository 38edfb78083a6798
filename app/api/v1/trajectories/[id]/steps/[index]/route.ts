import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { getTrajectoryStep } from "@/lib/trajectories/get-trajectory";
import { TrajectoryStepSchema } from "@/lib/http/api-schemas";

const StepParams = z.object({ id: z.string().min(1).max(200), index: z.coerce.number().int().min(0) });

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "One step of a trajectory, in full",
    params: StepParams,
    response: TrajectoryStepSchema,
  },
  ({ db, params }) => getTrajectoryStep(db, params.id, params.index),
);
