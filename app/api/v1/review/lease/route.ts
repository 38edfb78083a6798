import { defineRoute } from "@/lib/http/define-route";
import { releaseLeases } from "@/lib/curation/claim-next-task";
import { z } from "zod";

/** Leaving queue mode gives the curator's lease back at once instead of waiting for it to expire. */
export const DELETE = defineRoute(
  {
    permission: "tasks:decide",
    summary: "Give the caller's review lease back",
    response: z.object({ released: z.literal(true) }),
  },
  async ({ db, actor }) => {
    await releaseLeases(db, actor.id);
    return { released: true };
  },
);
