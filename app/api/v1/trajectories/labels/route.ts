import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { AnnotationLabelsSchema, labelCounts, setAnnotationLabels } from "@/lib/trajectories/annotations";

const LabelCountSchema = z.looseObject({
  label: z.string(),
  count: z.number().int(),
  byModel: z.array(z.object({ model: z.string(), role: z.string(), count: z.number().int() })),
});

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "The step labels curators may give, each with how often it was given per model",
    response: z.object({ items: z.array(LabelCountSchema), nextCursor: z.null() }),
  },
  async ({ db }) => ({ items: await labelCounts(db), nextCursor: null }),
);

export const PUT = defineRoute(
  {
    permission: "settings:manage",
    summary: "Set the step labels curators may give",
    body: AnnotationLabelsSchema,
    response: AnnotationLabelsSchema,
  },
  async ({ actor, db, body }) => ({ labels: await setAnnotationLabels(db, actor.id, body.labels) }),
);
