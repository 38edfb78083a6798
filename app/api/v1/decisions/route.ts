import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { DecisionInputSchema, recordDecision } from "@/lib/curation/record-decision";
import { DecisionResultSchema } from "@/lib/http/api-schemas";

const DecisionRequestSchema = DecisionInputSchema.extend({ taskId: z.string().min(1) });

export const POST = defineRoute(
  {
    permission: "tasks:decide",
    summary: "Approve, reject or send back a task (audited)",
    body: DecisionRequestSchema,
    response: DecisionResultSchema,
    status: 201,
    idempotent: true,
  },
  ({ db, actor, body: { taskId, ...input } }) => recordDecision(db, actor, taskId, input),
);
