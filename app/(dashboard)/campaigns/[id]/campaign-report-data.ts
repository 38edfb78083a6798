import "server-only";
import type { PageContext } from "@/lib/http/page-context";
import { campaignReport } from "@/lib/campaigns/report";
import { unlessRefused } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";

/**
 * The campaign's report as GET /api/v1/campaigns/:id reads it for `actor` (an annotator gets
 * their own row only), for the campaign's pages that show it: a campaign the actor may not
 * read, or none, gives no entry, and the client says the API's answer.
 */
export async function campaignReportData({ db, actor }: PageContext, campaignId: string) {
  const report = await unlessRefused(campaignReport(db, actor, campaignId));
  return report ? ([[queryKeys.campaign(campaignId), report]] satisfies [readonly unknown[], unknown][]) : [];
}
