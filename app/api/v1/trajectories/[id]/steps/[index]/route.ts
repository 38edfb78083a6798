import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { getTrajectoryStep } from "@/lib/trajectories/get-trajectory";

export const GET = defineRoute<{ id: string; index: string }>("VIEWER", ({ params }) =>
  getTrajectoryStep(prisma, params.id, z.coerce.number().int().min(0).parse(params.index)),
);
