import { defineRoute } from "@/lib/http/define-route";
import { taskEvidenceMatrix } from "@/lib/runs/evidence-matrix";
import { EvidenceMatrixSchema, IdParams } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Each FAIL_TO_PASS / PASS_TO_PASS test against every run that touched it, and why a test flipped",
    params: IdParams,
    response: EvidenceMatrixSchema,
  },
  ({ db, params, blind }) => taskEvidenceMatrix(db, params.id, blind),
);
