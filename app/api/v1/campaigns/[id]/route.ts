import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { campaignReport } from "@/lib/campaigns/report";

export const GET = defineRoute(
  {
    permission: "campaigns:annotate",
    summary:
      "A campaign: settings and progress; for an admin also agreement per question, annotator metrics and the disagreements",
    params: z.object({ id: z.string() }),
    response: z.unknown(),
  },
  ({ db, actor, params }) => campaignReport(db, actor, params.id),
);
