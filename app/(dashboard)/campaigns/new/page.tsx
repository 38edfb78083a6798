import { pageActor } from "@/lib/auth/session";
import { CreateCampaignForm } from "@/components/campaigns/create-campaign-form";

export default async function NewCampaignPage() {
  await pageActor("campaigns:manage");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">New annotation campaign</h1>
      <CreateCampaignForm />
    </div>
  );
}
