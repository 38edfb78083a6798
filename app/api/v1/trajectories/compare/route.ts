import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { compareTrajectories, CompareQuerySchema } from "@/lib/trajectories/compare";

const ComparisonSchema = z
  .looseObject({ rows: z.array(z.looseObject({ same: z.boolean() })), matched: z.number().int() })
  .meta({ id: "TrajectoryComparison" });

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Two trajectories side by side, their steps aligned by what they did",
    query: CompareQuerySchema,
    response: ComparisonSchema,
  },
  ({ db, query, blind }) => compareTrajectories(db, query.a, query.b, blind),
);
