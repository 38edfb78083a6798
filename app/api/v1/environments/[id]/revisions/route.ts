import { defineRoute, parseBody } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { SaveRevisionInputSchema, saveEnvironmentRevision } from "@/lib/environments/save-revision";

export const POST = defineRoute<{ id: string }>(PERMISSIONS["environments:edit"], async ({ request, actor, params }) =>
  saveEnvironmentRevision(prisma, actor, params.id, await parseBody(request, SaveRevisionInputSchema)),
);
