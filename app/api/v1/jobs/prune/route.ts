import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { requestPrune } from "@/lib/queue/request-prune";

export const POST = defineRoute(PERMISSIONS["settings:manage"], async ({ actor }) => Response.json(await requestPrune(prisma, actor.id), { status: 202 }));
