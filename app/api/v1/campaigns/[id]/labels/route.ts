import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { SubmitLabelSchema, submitLabel } from "@/lib/campaigns/submit-label";

export const POST = defineRoute(
  {
    permission: "campaigns:annotate",
    summary: "Submit your answers on a campaign task you were served",
    params: z.object({ id: z.string() }),
    body: SubmitLabelSchema,
    response: z.unknown(),
    status: 201,
    idempotent: true,
  },
  ({ db, actor, params, body }) => submitLabel(db, actor, params.id, body),
);
