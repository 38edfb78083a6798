import { pageContext, type PageContext } from "@/lib/http/page-context";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { jobsOverview } from "@/lib/runs/jobs-overview";
import { Prefetched } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { JobsDashboard } from "@/components/jobs/jobs-dashboard";

export const metadata = { title: "Jobs · SWE Curator" };

/** The overview as GET /api/v1/jobs reads it, and the Docker availability it carries (what GET /api/v1/docker answers), so the first HTML shows them. */
async function jobsPageData({ db, blind }: PageContext) {
  const overview = await jobsOverview(db, createDockerEngine(), blind);
  return [
    [queryKeys.jobs(), overview],
    [queryKeys.dockerAvailability(), overview.docker],
  ] satisfies [readonly unknown[], unknown][];
}

export default async function JobsPage() {
  // the routes' permission (tasks:read), and the reader's blind set, as the route applies it
  const page = await pageContext();
  return (
    <Prefetched entries={await jobsPageData(page)}>
      <JobsDashboard />
    </Prefetched>
  );
}
