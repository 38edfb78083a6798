import { defineRoute, parseBody } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { CreateUserSchema, createUser, listUsers } from "@/lib/users/manage-users";

export const GET = defineRoute("ADMIN", () => listUsers(prisma));

export const POST = defineRoute("ADMIN", async ({ request, actor }) => createUser(prisma, actor, await parseBody(request, CreateUserSchema)));
