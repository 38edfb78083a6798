import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { getValidationRun } from "@/lib/runs/list-task-validations";

export const GET = defineRoute<{ id: string }>(PERMISSIONS["tasks:read"], ({ params }) => getValidationRun(prisma, params.id));
