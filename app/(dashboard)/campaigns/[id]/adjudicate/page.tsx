import { pageActor } from "@/lib/auth/session";
import { Prefetched } from "@/components/ui/prefetched";
import { AdjudicationView } from "@/components/campaigns/adjudication-view";
import { campaignReportData } from "../campaign-report-data";

export default async function AdjudicatePage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await pageActor("campaigns:manage");
  const { id } = await params;
  return (
    <Prefetched entries={await campaignReportData(actor, id)}>
      <AdjudicationView campaignId={id} />
    </Prefetched>
  );
}
