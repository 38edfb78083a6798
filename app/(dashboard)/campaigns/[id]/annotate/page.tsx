import { pageActor } from "@/lib/auth/session";
import { AnnotateView } from "@/components/campaigns/annotate-view";

export default async function AnnotatePage({ params }: { params: Promise<{ id: string }> }) {
  await pageActor("campaigns:annotate");
  return <AnnotateView campaignId={(await params).id} />;
}
