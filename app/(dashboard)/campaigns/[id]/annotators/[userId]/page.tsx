import { pageContext } from "@/lib/http/page-context";
import { Prefetched } from "@/components/ui/prefetched";
import { AnnotatorPage } from "@/components/campaigns/annotator-page";
import { campaignReportData } from "../../campaign-report-data";

export default async function CampaignAnnotatorPage({ params }: { params: Promise<{ id: string; userId: string }> }) {
  const page = await pageContext("campaigns:manage");
  const { id, userId } = await params;
  return (
    <Prefetched entries={await campaignReportData(page, id)}>
      <AnnotatorPage campaignId={id} userId={userId} />
    </Prefetched>
  );
}
