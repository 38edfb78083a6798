import { defineRoute } from "@/lib/http/define-route";
import { OverrideVerdictInputSchema, overrideVerdict } from "@/lib/curation/override-verdict";
import { AnyObject, IdParams } from "@/lib/http/api-schemas";

export const POST = defineRoute(
  {
    permission: "tasks:decide",
    summary: "Override the automated verdict, with a justification",
    params: IdParams,
    body: OverrideVerdictInputSchema,
    response: AnyObject,
    status: 201,
    idempotent: true,
  },
  ({ db, actor, params, body }) => overrideVerdict(db, actor, params.id, body),
);
