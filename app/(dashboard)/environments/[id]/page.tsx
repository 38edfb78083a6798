import { prisma } from "@/lib/db/client";
import { pageActor } from "@/lib/auth/session";
import { getEnvironment } from "@/lib/environments/get-environment";
import { blindSetOf, type BlindSet } from "@/lib/auth/blind";
import { listEnvironmentBuilds } from "@/lib/builds/list-environment-builds";
import { Prefetched, unlessRefused } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { EnvironmentDetail } from "@/components/environments/environment-detail";

/**
 * The environment and its image builds, read as GET /api/v1/environments/:id and
 * /api/v1/builds?environmentId= read them, so the first HTML shows them; the client keeps them fresh.
 */
async function environmentPageData(idOrKey: string, blind: BlindSet) {
  const environment = await unlessRefused(getEnvironment(prisma, idOrKey, blind));
  if (!environment) return [];
  const builds = await listEnvironmentBuilds(prisma, environment.id);
  return [
    [queryKeys.environment(idOrKey), environment],
    [queryKeys.environmentBuilds(environment.id), builds],
  ] satisfies [readonly unknown[], unknown][];
}

export default async function EnvironmentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // the routes' permission (tasks:read), and the reader's blind set, as the route applies it
  const reader = await pageActor();
  return (
    <Prefetched entries={await environmentPageData(id, blindSetOf(prisma, reader))}>
      <EnvironmentDetail environmentId={id} />
    </Prefetched>
  );
}
