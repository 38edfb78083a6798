import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { RequestValidationSchema, requestValidation } from "@/lib/runs/request-validation";
import { listTaskValidations } from "@/lib/runs/list-task-validations";
import { QueuedGroupSchema, TaskValidationsSchema } from "@/lib/http/api-schemas";

const ListRunsQuerySchema = z.object({ taskId: z.string().min(1), groups: z.coerce.number().int().min(1).max(100).optional() });
const RequestRunsBodySchema = RequestValidationSchema.extend({ taskId: z.string().min(1) });

export const GET = defineRoute(
  { permission: "tasks:read", summary: "A task's latest validation groups", query: ListRunsQuerySchema, response: TaskValidationsSchema },
  ({ db, query }) => listTaskValidations(db, query.taskId, { groups: query.groups }),
);

/** Validate (or re-validate) a task: both controls × repeats, or one candidate patch. */
export const POST = defineRoute(
  { permission: "jobs:run", summary: "Validate a task: both controls × repeats, or one candidate patch", body: RequestRunsBodySchema, response: QueuedGroupSchema, status: 202, idempotent: true },
  ({ db, actor, body }) => requestValidation(db, { ...body, actorId: actor.id }),
);
