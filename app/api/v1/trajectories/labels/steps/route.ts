import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { LabelStepsQuerySchema, stepsWithLabel } from "@/lib/trajectories/annotations";
import { pageSchema } from "@/lib/http/pagination";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Every step given a label, across trajectories, newest first",
    query: LabelStepsQuerySchema,
    response: pageSchema(z.looseObject({ id: z.string(), stepIndex: z.number().int() })),
  },
  ({ db, query, blind }) => stepsWithLabel(db, query, blind),
);
