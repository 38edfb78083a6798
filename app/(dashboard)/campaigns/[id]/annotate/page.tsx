import { pageActor } from "@/lib/auth/session";
import { AnnotateView } from "@/components/campaigns/annotate-view";

export default async function AnnotatePage({ params }: { params: Promise<{ id: string }> }) {
  await pageActor("CURATOR");
  return <AnnotateView campaignId={(await params).id} />;
}
