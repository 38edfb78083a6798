import { pageContext } from "@/lib/http/page-context";
import { Prefetched } from "@/components/ui/prefetched";
import { AdjudicationView } from "@/components/campaigns/adjudication-view";
import { campaignReportData } from "../campaign-report-data";

export default async function AdjudicatePage({ params }: { params: Promise<{ id: string }> }) {
  const page = await pageContext("campaigns:manage");
  const { id } = await params;
  return (
    <Prefetched entries={await campaignReportData(page, id)}>
      <AdjudicationView campaignId={id} />
    </Prefetched>
  );
}
