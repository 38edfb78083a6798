import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { PageQuerySchema } from "@/lib/http/pagination";
import { RequestBuildSchema, requestBuild } from "@/lib/builds/request-build";
import { listEnvironmentBuilds } from "@/lib/builds/list-environment-builds";
import { BuildSchema, EnvironmentBuildsSchema } from "@/lib/http/api-schemas";

const ListBuildsQuerySchema = PageQuerySchema.extend({ environmentId: z.string().min(1) });

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "An environment's builds, newest first, a page at a time",
    query: ListBuildsQuerySchema,
    response: EnvironmentBuildsSchema,
  },
  ({ db, query }) => listEnvironmentBuilds(db, query.environmentId, query),
);

export const POST = defineRoute(
  {
    permission: "jobs:run",
    summary: "Queue a build of an environment revision",
    body: RequestBuildSchema,
    response: BuildSchema,
    status: 202,
    idempotent: true,
  },
  ({ db, actor, body }) => requestBuild(db, { ...body, actorId: actor.id }),
);
