import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { UpdateUserSchema, updateUser } from "@/lib/users/manage-users";
import { IdParams, UserSchema } from "@/lib/http/api-schemas";

export const PATCH = defineRoute({ permission: "users:manage", summary: "Change a user's role or disable them", params: IdParams, body: UpdateUserSchema, response: UserSchema }, ({ actor, params, body }) =>
  updateUser(prisma, actor, params.id, body),
);
