import { z } from "zod";
import { defineRoute, parseBody } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { retryBuild } from "@/lib/builds/retry-build";

const RetryBuildSchema = z.object({ noCache: z.boolean().optional() });

export const POST = defineRoute<{ id: string }>(PERMISSIONS["jobs:run"], async ({ request, actor, params }) => {
  const { noCache } = await parseBody(request, RetryBuildSchema);
  return Response.json(await retryBuild(prisma, { buildId: params.id, actorId: actor.id, noCache }), { status: 202 });
});
