import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { CreateCampaignSchema, createCampaign } from "@/lib/campaigns/create-campaign";
import { listCampaigns } from "@/lib/campaigns/report";
import { PageQuerySchema, pageOf } from "@/lib/http/pagination";

const CampaignCreatedSchema = z.object({
  id: z.string(),
  name: z.string(),
  tasks: z.number(),
  gold: z.number(),
  annotators: z.number(),
});

export const GET = defineRoute(
  {
    permission: "campaigns:annotate",
    summary: "The annotation campaigns you label (all of them for an admin), with progress",
    query: PageQuerySchema,
    response: z.object({ items: z.array(z.unknown()), nextCursor: z.string().nullable() }),
  },
  async ({ db, actor, query }) => pageOf(await listCampaigns(db, actor), query, (c) => c.id),
);

export const POST = defineRoute(
  {
    permission: "campaigns:manage",
    summary:
      "Start an annotation campaign: a rubric, the tasks of a saved view, annotators, overlap N, a combination and a drop rule",
    body: CreateCampaignSchema,
    response: CampaignCreatedSchema,
    status: 201,
    idempotent: true,
  },
  ({ db, actor, body }) => createCampaign(db, actor, body),
);
