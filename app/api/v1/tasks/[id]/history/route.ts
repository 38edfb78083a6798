import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { taskHistory } from "@/lib/tasks/task-history";

export const GET = defineRoute<{ id: string }>(PERMISSIONS["tasks:read"], ({ params }) => taskHistory(prisma, params.id));
