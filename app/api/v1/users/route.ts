import { defineRoute } from "@/lib/http/define-route";
import { CreateUserSchema, createUser, listUsers } from "@/lib/users/manage-users";
import { UserPageSchema, UserSchema } from "@/lib/http/api-schemas";
import { PageQuerySchema, pageOf } from "@/lib/http/pagination";

export const GET = defineRoute(
  { permission: "users:manage", summary: "Every user, oldest first", query: PageQuerySchema, response: UserPageSchema },
  async ({ db, query }) => pageOf(await listUsers(db), query, (user) => user.id),
);

export const POST = defineRoute(
  {
    permission: "users:manage",
    summary: "Create a user with a password",
    body: CreateUserSchema,
    response: UserSchema,
    status: 201,
    idempotent: true,
  },
  ({ db, actor, body }) => createUser(db, actor, body),
);
