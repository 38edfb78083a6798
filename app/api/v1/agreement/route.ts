import { defineRoute } from "@/lib/http/define-route";
import { AgreementQuerySchema, getAgreement } from "@/lib/metrics/get-agreement";
import { AnyObject } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Agreement between curators (Cohen's and Fleiss' kappa)",
    query: AgreementQuerySchema,
    response: AnyObject,
  },
  ({ db, query, blind }) => getAgreement(db, query, blind),
);
