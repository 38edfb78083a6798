import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { compareCandidates, CompareCandidatesQuerySchema } from "@/lib/trajectories/compare-candidates";

const CandidateSchema = z.looseObject({
  id: z.string(),
  externalId: z.string(),
  instanceId: z.string().nullable(),
  model: z.string().nullable(),
});
const CandidatesSchema = z
  .object({ nearTaskId: z.string().nullable(), sameTask: z.array(CandidateSchema), others: z.array(CandidateSchema) })
  .meta({ id: "CompareCandidates" });

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Trajectories to compare with one: its task's others first, then any other found by task, model or id",
    query: CompareCandidatesQuerySchema,
    response: CandidatesSchema,
  },
  ({ db, query, blind }) => compareCandidates(db, query, blind),
);
