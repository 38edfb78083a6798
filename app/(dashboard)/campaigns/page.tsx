import { Link } from "@/components/ui/link";
import { pageContext } from "@/lib/http/page-context";
import { can } from "@/lib/auth/permissions";
import { listCampaigns } from "@/lib/campaigns/report";
import { Prefetched } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { CampaignList } from "@/components/campaigns/campaign-list";

export default async function CampaignsPage() {
  const { db, actor } = await pageContext("campaigns:annotate");
  const manages = can(actor.role, "campaigns:manage");
  // the campaigns this reader labels (every one for a manager), as GET /api/v1/campaigns reads them for the same actor
  const campaigns = await listCampaigns(db, actor);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center">
        <h1 className="text-xl font-semibold">Annotation campaigns</h1>
        {manages && (
          <Link href="/campaigns/rubrics" className="ml-auto mr-3 text-sm text-blue-700 underline">
            Rubrics
          </Link>
        )}
        {manages && (
          <Link
            href="/campaigns/new"
            className=" rounded border border-blue-700 bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800"
          >
            New campaign
          </Link>
        )}
      </div>
      <Prefetched entries={[[queryKeys.campaigns(), campaigns]]}>
        <CampaignList />
      </Prefetched>
    </div>
  );
}
