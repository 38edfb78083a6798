import { prisma } from "@/lib/db/client";
import { pageActor } from "@/lib/auth/session";
import { campaignReport } from "@/lib/campaigns/report";
import { Prefetched, unlessRefused } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { CampaignOverview } from "@/components/campaigns/campaign-overview";

export default async function CampaignPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await pageActor("campaigns:annotate");
  const { id } = await params;
  // the report as GET /api/v1/campaigns/:id reads it for this actor (an annotator's own row only; a non-member is refused, and the client says so)
  const report = await unlessRefused(campaignReport(prisma, actor, id));
  return (
    <Prefetched entries={report ? [[queryKeys.campaign(id), report]] : []}>
      <CampaignOverview campaignId={id} />
    </Prefetched>
  );
}
