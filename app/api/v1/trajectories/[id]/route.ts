import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { getTrajectory } from "@/lib/trajectories/get-trajectory";

export const GET = defineRoute<{ id: string }>("VIEWER", ({ params }) => getTrajectory(prisma, params.id));
