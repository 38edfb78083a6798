import { defineRoute } from "@/lib/http/define-route";
import { ClaimNextInputSchema, claimNextTask } from "@/lib/curation/claim-next-task";
import { z } from "zod";

export const POST = defineRoute(
  {
    permission: "tasks:decide",
    summary: "Lease the next task of the review queue",
    body: ClaimNextInputSchema,
    response: z.object({ claimed: z.unknown() }),
  },
  async ({ db, actor, body, blind }) => ({ claimed: await claimNextTask(db, actor, body, blind) }),
);
