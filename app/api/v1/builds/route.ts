import { z } from "zod";
import { defineRoute, parseBody, parseQuery } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { RequestBuildSchema, requestBuild } from "@/lib/builds/request-build";
import { listEnvironmentBuilds } from "@/lib/builds/list-environment-builds";

const ListBuildsQuerySchema = z.object({ environmentId: z.string().min(1), take: z.coerce.number().int().min(1).max(100).optional() });

export const GET = defineRoute(PERMISSIONS["tasks:read"], async ({ url }) => {
  const query = parseQuery(url, ListBuildsQuerySchema);
  return listEnvironmentBuilds(prisma, query.environmentId, { take: query.take });
});

export const POST = defineRoute(PERMISSIONS["jobs:run"], async ({ request, actor }) => {
  const build = await requestBuild(prisma, { ...(await parseBody(request, RequestBuildSchema)), actorId: actor.id });
  return Response.json(build, { status: 202 });
});
