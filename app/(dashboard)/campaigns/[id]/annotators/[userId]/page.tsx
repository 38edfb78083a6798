import { pageActor } from "@/lib/auth/session";
import { AnnotatorPage } from "@/components/campaigns/annotator-page";

export default async function CampaignAnnotatorPage({ params }: { params: Promise<{ id: string; userId: string }> }) {
  await pageActor("campaigns:manage");
  const { id, userId } = await params;
  return <AnnotatorPage campaignId={id} userId={userId} />;
}
