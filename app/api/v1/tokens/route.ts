import { defineRoute } from "@/lib/http/define-route";
import { CreateApiTokenSchema, createApiToken } from "@/lib/auth/api-tokens";
import { listOwnApiTokens } from "@/lib/auth/manage-api-tokens";
import { ApiTokenPageSchema, CreatedApiTokenSchema } from "@/lib/http/api-schemas";
import { PageQuerySchema } from "@/lib/http/pagination";

export const GET = defineRoute(
  {
    permission: "tokens:manage",
    summary: "Your API tokens, newest first",
    query: PageQuerySchema,
    response: ApiTokenPageSchema,
  },
  ({ db, actor, query }) => listOwnApiTokens(db, actor, query),
);

// Every signed-in user may hold tokens for their own role (the CLI uses them); a token never exceeds its owner's role.
export const POST = defineRoute(
  {
    permission: "tokens:manage",
    summary: "Create an API token (shown once) with scopes and an expiry",
    body: CreateApiTokenSchema,
    response: CreatedApiTokenSchema,
    status: 201,
    idempotent: true,
  },
  ({ db, actor, body }) => createApiToken(db, actor.id, body),
);
