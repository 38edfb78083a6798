import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { retryBuild } from "@/lib/builds/retry-build";
import { BuildSchema, IdParams } from "@/lib/http/api-schemas";

const RetryBuildSchema = z.object({ noCache: z.boolean().optional() });

export const POST = defineRoute(
  { permission: "jobs:run", summary: "Build the same revision again (a new build)", params: IdParams, body: RetryBuildSchema, response: BuildSchema, status: 202, idempotent: true },
  ({ actor, params, body }) => retryBuild(prisma, { buildId: params.id, actorId: actor.id, noCache: body.noCache }),
);
