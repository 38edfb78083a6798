import { defineRoute, parseBody } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { UpdateUserSchema, updateUser } from "@/lib/users/manage-users";

export const PATCH = defineRoute<{ id: string }>("ADMIN", async ({ request, actor, params }) =>
  updateUser(prisma, actor, params.id, await parseBody(request, UpdateUserSchema)),
);
