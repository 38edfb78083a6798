import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { drainWorker } from "@/lib/jobs/drain-worker";
import { AnyObject, IdParams } from "@/lib/http/api-schemas";

const DrainBody = z.object({
  drain: z.boolean().describe("true: finish running jobs and take nothing new; false: take work again"),
});

export const POST = defineRoute(
  {
    permission: "settings:manage",
    summary: "Drain a worker (finish what it runs, take nothing new) or let it work again",
    params: IdParams,
    body: DrainBody,
    response: AnyObject,
  },
  ({ db, params, body, actor }) => drainWorker(db, { workerId: params.id, drain: body.drain, actorId: actor.id }),
);
