import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { annotateStep, listTrajectoryAnnotations, NewAnnotationSchema } from "@/lib/trajectories/annotations";
import { IdParams } from "@/lib/http/api-schemas";

const AnnotationSchema = z
  .looseObject({
    id: z.string(),
    stepIndex: z.number().int(),
    label: z.string().nullable(),
    comment: z.string().nullable(),
  })
  .meta({ id: "StepAnnotation" });

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Curators' labels and comments on a trajectory's steps",
    params: IdParams,
    response: z.object({ items: z.array(AnnotationSchema), nextCursor: z.null() }),
  },
  async ({ db, params }) => ({ items: await listTrajectoryAnnotations(db, params.id), nextCursor: null }),
);

export const POST = defineRoute(
  {
    permission: "tasks:decide",
    summary: "Label or comment one step of a trajectory",
    params: IdParams,
    body: NewAnnotationSchema,
    response: AnnotationSchema,
    status: 201,
    idempotent: true,
  },
  ({ actor, db, params, body }) => annotateStep(db, actor.id, params.id, body),
);
