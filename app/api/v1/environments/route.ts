import { defineRoute, parseQuery } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { EnvironmentListQuerySchema, listEnvironments } from "@/lib/environments/list-environments";

export const GET = defineRoute(PERMISSIONS["tasks:read"], ({ url }) => listEnvironments(prisma, parseQuery(url, EnvironmentListQuerySchema)));
