import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { GoldTaskSchema } from "@/lib/campaigns/create-campaign";
import { addGoldTask } from "@/lib/campaigns/gold";

export const POST = defineRoute(
  {
    permission: "campaigns:manage",
    summary: "Add a gold task (by id or instance id) with reference answers and their explanation",
    params: z.object({ id: z.string() }),
    body: GoldTaskSchema,
    response: z.object({ campaignId: z.string(), taskId: z.string(), instanceId: z.string() }),
    status: 201,
    idempotent: true,
  },
  ({ db, actor, params, body }) => addGoldTask(db, actor, params.id, body),
);
