import { prisma } from "@/lib/db/client";
import { pageActor } from "@/lib/auth/session";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { jobsOverview } from "@/lib/runs/jobs-overview";
import { blindSetOf, type BlindSet } from "@/lib/auth/blind";
import { Prefetched } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { JobsDashboard } from "@/components/jobs/jobs-dashboard";

export const metadata = { title: "Jobs · SWE Curator" };

/** The overview as GET /api/v1/jobs reads it, and the Docker availability it carries (what GET /api/v1/docker answers), so the first HTML shows them. */
async function jobsPageData(blind: BlindSet) {
  const overview = await jobsOverview(prisma, createDockerEngine(), blind);
  return [
    [queryKeys.jobs(), overview],
    [queryKeys.dockerAvailability(), overview.docker],
  ] satisfies [readonly unknown[], unknown][];
}

export default async function JobsPage() {
  // the routes' permission (tasks:read), and the reader's blind set, as the route applies it
  const reader = await pageActor();
  return (
    <Prefetched entries={await jobsPageData(blindSetOf(prisma, reader))}>
      <JobsDashboard />
    </Prefetched>
  );
}
