import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { editsUpTo } from "@/lib/trajectories/trajectory-edits";
import { IdParams } from "@/lib/http/api-schemas";

const EditsQuery = z.object({
  upTo: z.coerce.number().int().min(0).describe("the last step (index) whose edits count"),
});
const EditsSchema = z
  .object({
    items: z.array(z.looseObject({ index: z.number().int(), path: z.string().nullable(), operation: z.string() })),
  })
  .meta({ id: "TrajectoryEdits" });

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Every edit a trajectory made up to a step: the repository as the agent saw it there",
    params: IdParams,
    query: EditsQuery,
    response: EditsSchema,
  },
  async ({ db, params, query }) => ({ items: await editsUpTo(db, params.id, query.upTo) }),
);
