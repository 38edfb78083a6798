import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { getRunLog } from "@/lib/tasks/get-run-log";

export const GET = defineRoute<{ id: string; runId: string }>(PERMISSIONS["tasks:read"], ({ params }) => getRunLog(prisma, params.id, params.runId));
