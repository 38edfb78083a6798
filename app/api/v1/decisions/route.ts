import { z } from "zod";
import { defineRoute, parseBody } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { DecisionInputSchema, recordDecision } from "@/lib/curation/record-decision";

const DecisionRequestSchema = DecisionInputSchema.extend({ taskId: z.string().min(1) });

export const POST = defineRoute(PERMISSIONS["tasks:decide"], async ({ request, actor }) => {
  const { taskId, ...input } = await parseBody(request, DecisionRequestSchema);
  return recordDecision(prisma, actor, taskId, input);
});
