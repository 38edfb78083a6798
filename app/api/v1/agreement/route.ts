import { defineRoute, parseQuery } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { AgreementQuerySchema, getAgreement } from "@/lib/metrics/get-agreement";

export const GET = defineRoute(PERMISSIONS["tasks:read"], ({ url }) => getAgreement(prisma, parseQuery(url, AgreementQuerySchema)));
