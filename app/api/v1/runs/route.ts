import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { PageQuerySchema } from "@/lib/http/pagination";
import { RequestValidationSchema, requestValidation } from "@/lib/runs/request-validation";
import { listTaskValidations } from "@/lib/runs/list-task-validations";
import { QueuedGroupSchema, TaskValidationsSchema } from "@/lib/http/api-schemas";

const ListRunsQuerySchema = PageQuerySchema.extend({ taskId: z.string().min(1) });
const RequestRunsBodySchema = RequestValidationSchema.extend({ taskId: z.string().min(1) });

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "A task's validation groups, newest first, a page at a time",
    query: ListRunsQuerySchema,
    response: TaskValidationsSchema,
  },
  ({ db, query, blind }) => listTaskValidations(db, query.taskId, query, blind),
);

/** Validate (or re-validate) a task: both controls × repeats, or one candidate patch. */
export const POST = defineRoute(
  {
    permission: "jobs:run",
    summary: "Validate a task: both controls × repeats, or one candidate patch",
    body: RequestRunsBodySchema,
    response: QueuedGroupSchema,
    status: 202,
    idempotent: true,
  },
  ({ db, actor, body }) => requestValidation(db, { ...body, actorId: actor.id }),
);
