import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { getTask } from "@/lib/tasks/get-task";

export const GET = defineRoute<{ id: string }>("VIEWER", ({ params }) => getTask(prisma, params.id));
