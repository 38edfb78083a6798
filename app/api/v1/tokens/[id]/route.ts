import { defineRoute } from "@/lib/http/define-route";
import { revokeApiToken } from "@/lib/auth/manage-api-tokens";
import { IdParams, RevokedTokenSchema } from "@/lib/http/api-schemas";

export const DELETE = defineRoute(
  {
    permission: "tokens:manage",
    summary: "Revoke one of your API tokens",
    params: IdParams,
    response: RevokedTokenSchema,
  },
  ({ db, actor, params }) => revokeApiToken(db, actor, params.id),
);
