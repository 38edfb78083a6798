import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { reviewQueueLeft } from "@/lib/curation/claim-next-task";

/** The review queue's "n of m left": tasks of the view the caller has not decided. */
export const GET = defineRoute(
  {
    permission: "tasks:decide",
    summary: "How many tasks of a review queue view you have not decided yet",
    query: z.object({ filters: z.string().max(4_000).default("") }),
    response: z.object({ left: z.number().int() }),
  },
  ({ db, actor, query, blind }) => reviewQueueLeft(db, actor, query.filters, blind),
);
