import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { listTrajectorySteps } from "@/lib/trajectories/get-trajectory";
import { IdParams, TrajectoryStepPageSchema } from "@/lib/http/api-schemas";
import { PageQuerySchema } from "@/lib/http/pagination";

// The cursor is the index of the last step seen; steps are previews (the full text is per step).
const StepsQuerySchema = PageQuerySchema.extend({ cursor: z.coerce.number().int().min(0).optional().describe("index of the last step of the previous page") });

export const GET = defineRoute(
  { permission: "tasks:read", summary: "A trajectory's steps as previews, a page at a time", params: IdParams, query: StepsQuerySchema, response: TrajectoryStepPageSchema },
  async ({ db, params, query }) => {
    const from = query.cursor === undefined ? 0 : query.cursor + 1;
    const items = await listTrajectorySteps(db, params.id, { from, limit: query.limit + 1 });
    const page = items.slice(0, query.limit);
    return { items: page, nextCursor: items.length > query.limit ? String(page[page.length - 1].index) : null };
  },
);
