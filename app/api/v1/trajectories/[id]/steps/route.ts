import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { listStepWindow, StepWindowQuerySchema } from "@/lib/trajectories/get-trajectory";
import { IdParams, TrajectoryStepPageSchema } from "@/lib/http/api-schemas";

// The list is virtual: a client asks for the window on screen (from a position, or around a
// step with ?at=), so a jump anywhere is one request. The cursor is the next position.
const StepsQuerySchema = StepWindowQuerySchema.extend({
  cursor: z.coerce.number().int().min(0).optional().describe("nextCursor of the previous page"),
});

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary:
      "A window of a trajectory's steps (one line each), at any position or around a step, optionally of one kind",
    params: IdParams,
    query: StepsQuerySchema,
    response: TrajectoryStepPageSchema,
  },
  async ({ db, params, query }) => {
    const window = await listStepWindow(db, params.id, { ...query, from: query.cursor ?? query.from });
    const more = window.items.length === query.limit;
    return { ...window, nextCursor: more ? String(window.offset + window.items.length) : null };
  },
);
