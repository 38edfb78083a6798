import { Link } from "@/components/ui/link";
import { pageContext, type PageContext } from "@/lib/http/page-context";
import { listEnvironmentBuilds } from "@/lib/builds/list-environment-builds";
import { Prefetched, unlessRefused } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { EnvironmentBuildPanel } from "@/components/validation/environment-build-panel";

export const metadata = { title: "Builds · SWE Curator" };

/** The environment's builds as GET /api/v1/builds?environmentId= reads them, so the first HTML shows them. */
async function buildsPageData({ db }: PageContext, environmentId: string) {
  const builds = await unlessRefused(listEnvironmentBuilds(db, environmentId));
  if (!builds) return [];
  return [[queryKeys.environmentBuilds(environmentId), builds]] satisfies [readonly unknown[], unknown][];
}

/** An environment's image builds on their own page; the environment page embeds the same panel. */
export default async function EnvironmentBuildsPage({ params }: { params: Promise<{ environmentId: string }> }) {
  const { environmentId } = await params;
  // the route's permission (tasks:read), and no reader-specific filter: the API answers the same to every reader who has it
  const page = await pageContext();
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <h1 className="text-xl font-semibold text-slate-900">Image builds</h1>
        <Link className="text-sm text-blue-800 underline" href={`/environments/${environmentId}`}>
          Open the environment
        </Link>
      </div>
      <Prefetched entries={await buildsPageData(page, environmentId)}>
        <EnvironmentBuildPanel environmentId={environmentId} />
      </Prefetched>
    </div>
  );
}
