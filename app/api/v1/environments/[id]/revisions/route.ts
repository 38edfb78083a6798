import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { SaveRevisionInputSchema, saveEnvironmentRevision } from "@/lib/environments/save-revision";
import { IdParams, RevisionSchema } from "@/lib/http/api-schemas";

export const POST = defineRoute(
  { permission: "environments:edit", summary: "Save a new revision of the Dockerfile / eval script", params: IdParams, body: SaveRevisionInputSchema, response: RevisionSchema, status: 201, idempotent: true },
  ({ actor, params, body }) => saveEnvironmentRevision(prisma, actor, params.id, body),
);
