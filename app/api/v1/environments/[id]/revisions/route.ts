import { defineRoute } from "@/lib/http/define-route";
import { SaveRevisionInputSchema, saveEnvironmentRevision } from "@/lib/environments/save-revision";
import { IdParams, RevisionSchema } from "@/lib/http/api-schemas";

export const POST = defineRoute(
  {
    permission: "environments:edit",
    summary: "Save a new revision of the Dockerfile / eval script",
    params: IdParams,
    body: SaveRevisionInputSchema,
    response: RevisionSchema,
    status: 201,
    idempotent: true,
  },
  ({ db, actor, params, body }) => saveEnvironmentRevision(db, actor, params.id, body),
);
