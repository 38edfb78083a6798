import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { getTrajectoryStep } from "@/lib/trajectories/get-trajectory";
import { TrajectoryStepSchema } from "@/lib/http/api-schemas";

const StepParams = z.object({ id: z.string().min(1).max(200), index: z.coerce.number().int().min(0) });

export const GET = defineRoute({ permission: "tasks:read", summary: "One step of a trajectory, in full", params: StepParams, response: TrajectoryStepSchema }, ({ params }) =>
  getTrajectoryStep(prisma, params.id, params.index),
);
