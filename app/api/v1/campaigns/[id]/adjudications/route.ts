import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { AdjudicateSchema, adjudicate } from "@/lib/campaigns/adjudicate";

export const POST = defineRoute(
  {
    permission: "campaigns:manage",
    summary: "Resolve a task's disagreement (kept apart from the labels; it decides the outcome)",
    params: z.object({ id: z.string() }),
    body: AdjudicateSchema,
    response: z.unknown(),
    status: 201,
    idempotent: true,
  },
  ({ db, actor, params, body }) => adjudicate(db, actor, params.id, body),
);
