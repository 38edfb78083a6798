import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { listWorkers } from "@/lib/queue/worker-heartbeat";

export const dynamic = "force-dynamic";

export const GET = defineRoute(PERMISSIONS["tasks:read"], () => listWorkers(prisma));
