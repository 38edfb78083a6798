import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { getTrajectory } from "@/lib/trajectories/get-trajectory";
import { IdParams, TrajectorySchema } from "@/lib/http/api-schemas";

export const GET = defineRoute({ permission: "tasks:read", summary: "One agent trajectory", params: IdParams, response: TrajectorySchema }, ({ params }) => getTrajectory(prisma, params.id));
