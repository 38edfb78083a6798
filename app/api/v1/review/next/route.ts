import { defineRoute, parseBody } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { ClaimNextInputSchema, claimNextTask } from "@/lib/curation/claim-next-task";

export const POST = defineRoute(PERMISSIONS["tasks:decide"], async ({ request, actor }) => ({
  claimed: await claimNextTask(prisma, actor, await parseBody(request, ClaimNextInputSchema)),
}));
