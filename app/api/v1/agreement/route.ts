import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { AgreementQuerySchema, getAgreement } from "@/lib/metrics/get-agreement";
import { AnyObject } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  { permission: "tasks:read", summary: "Agreement between curators (Cohen's and Fleiss' kappa)", query: AgreementQuerySchema, response: AnyObject },
  ({ query }) => getAgreement(prisma, query),
);
