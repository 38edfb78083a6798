import { pageContext, type PageContext } from "@/lib/http/page-context";
import { getEnvironment } from "@/lib/environments/get-environment";
import { listEnvironmentBuilds } from "@/lib/builds/list-environment-builds";
import { Prefetched, unlessRefused } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { EnvironmentDetail } from "@/components/environments/environment-detail";

/**
 * The environment and its image builds, read as GET /api/v1/environments/:id and
 * /api/v1/builds?environmentId= read them, so the first HTML shows them; the client keeps them fresh.
 */
async function environmentPageData(idOrKey: string, { db, blind }: PageContext) {
  const environment = await unlessRefused(getEnvironment(db, idOrKey, blind));
  if (!environment) return [];
  const builds = await listEnvironmentBuilds(db, environment.id);
  return [
    [queryKeys.environment(idOrKey), environment],
    [queryKeys.environmentBuilds(environment.id), builds],
  ] satisfies [readonly unknown[], unknown][];
}

export default async function EnvironmentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // the routes' permission (tasks:read), and the reader's blind set, as the route applies it
  const page = await pageContext();
  return (
    <Prefetched entries={await environmentPageData(id, page)}>
      <EnvironmentDetail environmentId={id} />
    </Prefetched>
  );
}
