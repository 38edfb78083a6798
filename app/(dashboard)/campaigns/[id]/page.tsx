import { pageContext } from "@/lib/http/page-context";
import { Prefetched } from "@/components/ui/prefetched";
import { CampaignOverview } from "@/components/campaigns/campaign-overview";
import { campaignReportData } from "./campaign-report-data";

export default async function CampaignPage({ params }: { params: Promise<{ id: string }> }) {
  const page = await pageContext("campaigns:annotate");
  const { id } = await params;
  return (
    <Prefetched entries={await campaignReportData(page, id)}>
      <CampaignOverview campaignId={id} />
    </Prefetched>
  );
}
