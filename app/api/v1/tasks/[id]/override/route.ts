import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { OverrideVerdictInputSchema, overrideVerdict } from "@/lib/curation/override-verdict";
import { AnyObject, IdParams } from "@/lib/http/api-schemas";

export const POST = defineRoute(
  { permission: "tasks:decide", summary: "Override the automated verdict, with a justification", params: IdParams, body: OverrideVerdictInputSchema, response: AnyObject, status: 201, idempotent: true },
  ({ actor, params, body }) => overrideVerdict(prisma, actor, params.id, body),
);
