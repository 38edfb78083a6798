import { pageActor } from "@/lib/auth/session";
import { Prefetched } from "@/components/ui/prefetched";
import { CampaignOverview } from "@/components/campaigns/campaign-overview";
import { campaignReportData } from "./campaign-report-data";

export default async function CampaignPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await pageActor("campaigns:annotate");
  const { id } = await params;
  return (
    <Prefetched entries={await campaignReportData(actor, id)}>
      <CampaignOverview campaignId={id} />
    </Prefetched>
  );
}
