import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { pageSchema } from "@/lib/http/pagination";
import { CrossSearchQuerySchema, searchAllSteps } from "@/lib/trajectories/search-all-steps";
import { OUTCOMES } from "@/lib/trajectories/trajectory-outcome";

const StepHitSchema = z
  .object({
    trajectoryId: z.string(),
    stepIndex: z.number().int().describe("0-based; the inspector's ?step= counts from 1"),
    kind: z.string().nullable(),
    model: z.string().nullable(),
    taskId: z.string().nullable(),
    instanceId: z.string().nullable(),
    outcome: z.enum(OUTCOMES),
    snippet: z
      .array(z.object({ text: z.string(), match: z.boolean() }))
      .describe("the step's text around the match, matched words marked"),
  })
  .meta({ id: "StepHit" });

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Steps of every trajectory matching words, filtered by model, task and outcome, a page at a time",
    query: CrossSearchQuerySchema,
    response: pageSchema(StepHitSchema),
  },
  ({ db, query, blind }) => searchAllSteps(db, query, blind),
);
