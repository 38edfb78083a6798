import { defineRoute } from "@/lib/http/define-route";
import { UpdateUserSchema, updateUser } from "@/lib/users/manage-users";
import { IdParams, UserSchema } from "@/lib/http/api-schemas";

export const PATCH = defineRoute(
  {
    permission: "users:manage",
    summary: "Change a user's role or disable them",
    params: IdParams,
    body: UpdateUserSchema,
    response: UserSchema,
  },
  ({ db, actor, params, body }) => updateUser(db, actor, params.id, body),
);
