import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { retryValidation } from "@/lib/runs/retry-validation";

/** Runs the run's group again with the same inputs, as a new group. */
export const POST = defineRoute<{ id: string }>(PERMISSIONS["jobs:run"], async ({ actor, params }) =>
  Response.json(await retryValidation(prisma, { runId: params.id, actorId: actor.id }), { status: 202 }),
);
