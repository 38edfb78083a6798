import { defineRoute, parseQuery } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { ListStepsQuerySchema, listTrajectorySteps } from "@/lib/trajectories/get-trajectory";

export const GET = defineRoute<{ id: string }>("VIEWER", ({ params, url }) => listTrajectorySteps(prisma, params.id, parseQuery(url, ListStepsQuerySchema)));
