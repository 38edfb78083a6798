import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { jobLogResponse } from "@/lib/queue/server-sent-events";

export const dynamic = "force-dynamic";

/** The build's live log as server-sent events (log, status, end). */
export const GET = defineRoute<{ id: string }>(PERMISSIONS["tasks:read"], ({ request, url, params, actor }) => jobLogResponse(prisma, { buildId: params.id }, request, url, actor.id));
