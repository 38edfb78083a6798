import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { searchTrajectorySteps, SearchStepsQuerySchema } from "@/lib/trajectories/search-steps";
import { IdParams, TrajectoryStepSchema } from "@/lib/http/api-schemas";

const SearchResultSchema = z
  .object({
    count: z.number().int(),
    matches: z.array(z.number().int()),
    mode: z.enum(["words", "text", "regex"]),
    firstStep: TrajectoryStepSchema.nullable().optional().describe("with first=1: the first matching step in full"),
  })
  .meta({ id: "TrajectorySearchResult" });

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Steps of a trajectory whose thought, action or observation match words or a regular expression",
    params: IdParams,
    query: SearchStepsQuerySchema,
    response: SearchResultSchema,
  },
  ({ db, params, query }) => searchTrajectorySteps(db, params.id, query),
);
