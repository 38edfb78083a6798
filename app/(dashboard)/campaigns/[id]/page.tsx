import { pageActor } from "@/lib/auth/session";
import { CampaignOverview } from "@/components/campaigns/campaign-overview";

export default async function CampaignPage({ params }: { params: Promise<{ id: string }> }) {
  await pageActor("campaigns:annotate");
  return <CampaignOverview campaignId={(await params).id} />;
}
