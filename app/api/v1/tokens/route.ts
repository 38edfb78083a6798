import { defineRoute, parseBody } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { CreateApiTokenSchema, createApiToken } from "@/lib/auth/api-tokens";
import { listOwnApiTokens } from "@/lib/auth/manage-api-tokens";

export const GET = defineRoute("VIEWER", ({ actor }) => listOwnApiTokens(prisma, actor));

// Every signed-in user may hold tokens for their own role (the CLI uses them); a token never exceeds its owner's role.
export const POST = defineRoute("VIEWER", async ({ request, actor }) =>
  createApiToken(prisma, actor.id, await parseBody(request, CreateApiTokenSchema)),
);
