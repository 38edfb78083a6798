import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { retryBuild } from "@/lib/builds/retry-build";
import { BuildSchema, IdParams } from "@/lib/http/api-schemas";

const RetryBuildSchema = z.object({ noCache: z.boolean().optional() });

export const POST = defineRoute(
  {
    permission: "jobs:run",
    summary: "Build the same revision again (a new build)",
    params: IdParams,
    body: RetryBuildSchema,
    response: BuildSchema,
    status: 202,
    idempotent: true,
  },
  ({ db, actor, params, body }) => retryBuild(db, { buildId: params.id, actorId: actor.id, noCache: body.noCache }),
);
