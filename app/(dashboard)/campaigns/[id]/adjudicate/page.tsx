import { pageActor } from "@/lib/auth/session";
import { AdjudicationView } from "@/components/campaigns/adjudication-view";

export default async function AdjudicatePage({ params }: { params: Promise<{ id: string }> }) {
  await pageActor("campaigns:manage");
  return <AdjudicationView campaignId={(await params).id} />;
}
