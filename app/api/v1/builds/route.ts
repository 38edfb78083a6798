import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { RequestBuildSchema, requestBuild } from "@/lib/builds/request-build";
import { listEnvironmentBuilds } from "@/lib/builds/list-environment-builds";
import { BuildSchema, EnvironmentBuildsSchema } from "@/lib/http/api-schemas";

const ListBuildsQuerySchema = z.object({ environmentId: z.string().min(1), take: z.coerce.number().int().min(1).max(100).optional() });

export const GET = defineRoute(
  { permission: "tasks:read", summary: "An environment's builds, newest first", query: ListBuildsQuerySchema, response: EnvironmentBuildsSchema },
  ({ db, query }) => listEnvironmentBuilds(db, query.environmentId, { take: query.take }),
);

export const POST = defineRoute(
  { permission: "jobs:run", summary: "Queue a build of an environment revision", body: RequestBuildSchema, response: BuildSchema, status: 202, idempotent: true },
  ({ db, actor, body }) => requestBuild(db, { ...body, actorId: actor.id }),
);
