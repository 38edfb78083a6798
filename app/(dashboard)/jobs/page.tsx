import { JobsDashboard } from "@/components/jobs/jobs-dashboard";

export const metadata = { title: "Jobs · SWE Curator" };

export default function JobsPage() {
  return <JobsDashboard />;
}
