import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { CampaignExportQuerySchema, campaignExportResponse } from "@/lib/campaigns/export-campaign";
import { loadCampaign } from "@/lib/campaigns/access";

export const GET = defineRoute(
  {
    permission: "campaigns:manage",
    summary:
      "The campaign's finished tasks with rubric answers, combined scores, difficulty and filter_out (JSONL or CSV)",
    params: z.object({ id: z.string() }),
    query: CampaignExportQuerySchema,
    produces: "application/x-ndjson",
  },
  async ({ db, params, query }) => {
    await loadCampaign(db, params.id);
    return campaignExportResponse(db, params.id, query.format);
  },
);
