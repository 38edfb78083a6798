import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { listAssignees } from "@/lib/tasks/list-assignees";

export const GET = defineRoute(PERMISSIONS["tasks:edit"], () => listAssignees(prisma));
