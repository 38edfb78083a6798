import { defineRoute } from "@/lib/http/define-route";
import { ResetPasswordSchema, resetPassword } from "@/lib/auth/password-change";
import { AnyObject, IdParams } from "@/lib/http/api-schemas";

/** An admin resets a user's password (generated and returned once when none is given); their sessions end, and their API tokens unless revokeApiTokens is false. */
export const POST = defineRoute(
  {
    permission: "users:manage",
    summary:
      "Reset a user's password (generated and shown once when none is given); their sessions end, and their API tokens unless revokeApiTokens is false",
    params: IdParams,
    body: ResetPasswordSchema,
    response: AnyObject,
  },
  ({ db, actor, params, body }) => resetPassword(db, actor, params.id, body),
);
