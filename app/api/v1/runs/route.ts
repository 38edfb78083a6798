import { z } from "zod";
import { defineRoute, parseBody, parseQuery } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { RequestValidationSchema, requestValidation } from "@/lib/runs/request-validation";
import { listTaskValidations } from "@/lib/runs/list-task-validations";

const ListRunsQuerySchema = z.object({ taskId: z.string().min(1), groups: z.coerce.number().int().min(1).max(100).optional() });
const RequestRunsBodySchema = RequestValidationSchema.extend({ taskId: z.string().min(1) });

export const GET = defineRoute(PERMISSIONS["tasks:read"], async ({ url }) => {
  const query = parseQuery(url, ListRunsQuerySchema);
  return listTaskValidations(prisma, query.taskId, { groups: query.groups });
});

/** Validate (or re-validate) a task: both controls × repeats, or one candidate patch. */
export const POST = defineRoute(PERMISSIONS["jobs:run"], async ({ request, actor }) => {
  const body = await parseBody(request, RequestRunsBodySchema);
  return Response.json(await requestValidation(prisma, { ...body, actorId: actor.id }), { status: 202 });
});
