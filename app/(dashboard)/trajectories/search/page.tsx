import { pageActor } from "@/lib/auth/session";
import { clusterQueryString, crossSearchParamsOf, crossSearchQueryString } from "@/lib/trajectories/cross-search-url";
import { clustersForPage, firstSearchPage } from "@/lib/trajectories/search-page-data";
import { Prefetched } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { CrossSearch } from "@/components/trajectory/cross-search";

/** Search across trajectories (?q=&model=&task=&verdict=) and their failure clusters (&tab=clusters). */
export default async function TrajectorySearchPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // the routes' permission (tasks:read), and the reader the routes would see, blind set included
  const reader = await pageActor();
  const params = crossSearchParamsOf(await searchParams);
  const entries: [readonly unknown[], unknown][] = [];
  if (params.tab === "clusters") {
    const clusters = await clustersForPage(reader, params);
    if (clusters) entries.push([queryKeys.trajectoryClusters(clusterQueryString(params)), clusters]);
  } else {
    const page = await firstSearchPage(reader, params);
    if (page)
      entries.push([queryKeys.trajectorySearch(crossSearchQueryString(params)), { pages: [page], pageParams: [null] }]);
  }
  return (
    <Prefetched entries={entries}>
      <CrossSearch initial={params} />
    </Prefetched>
  );
}
