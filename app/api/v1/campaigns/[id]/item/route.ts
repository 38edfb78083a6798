import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { campaignItem } from "@/lib/campaigns/campaign-item";

export const GET = defineRoute(
  {
    permission: "campaigns:annotate",
    summary:
      "One campaign task to annotate; in a blind campaign others' answers and the automated verdict stay out until you submit",
    params: z.object({ id: z.string() }),
    query: z.object({ taskId: z.string().min(1) }),
    response: z.unknown(),
  },
  ({ db, actor, params, query, blind }) => campaignItem(db, actor, params.id, query.taskId, blind),
);
