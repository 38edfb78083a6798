import { defineRoute, parseBody } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { OverrideVerdictInputSchema, overrideVerdict } from "@/lib/curation/override-verdict";

export const POST = defineRoute<{ id: string }>(PERMISSIONS["tasks:decide"], async ({ request, actor, params }) =>
  overrideVerdict(prisma, actor, params.id, await parseBody(request, OverrideVerdictInputSchema)),
);
