import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { getEnvironment } from "@/lib/environments/get-environment";

export const GET = defineRoute<{ id: string }>(PERMISSIONS["tasks:read"], ({ params }) => getEnvironment(prisma, params.id));
