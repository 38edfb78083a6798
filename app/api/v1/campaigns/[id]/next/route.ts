import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { serveNext } from "@/lib/campaigns/serve-next";

export const POST = defineRoute(
  {
    permission: "campaigns:annotate",
    summary: "Lease your next task of the campaign (a gold task first while you onboard)",
    params: z.object({ id: z.string() }),
    response: z.unknown(),
  },
  ({ db, actor, params }) => serveNext(db, actor, params.id),
);
