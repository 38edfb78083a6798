"use client";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";

type Availability = {
  canRunJobs: boolean;
  problem: string | null;
  web: { reachable: boolean; endpoint: string; error?: string };
};

/** Says plainly when builds and validations cannot run right now, and why. */
export function DockerBanner() {
  const { data } = useQuery({
    queryKey: queryKeys.dockerAvailability(),
    queryFn: () => apiFetch<Availability>("/api/v1/docker"),
    refetchInterval: 10_000,
  });
  if (!data || data.canRunJobs) return null;
  return (
    <div
      role="alert"
      data-testid="docker-banner"
      className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <p className="font-medium">
        {data.web.reachable ? "Builds and validations cannot run right now" : "Docker engine not reachable"}
      </p>
      <p>{data.problem ?? data.web.error}</p>
      <p className="text-xs">
        Everything else keeps working; queued jobs wait (or fail with this reason) until a worker with Docker is up.
      </p>
    </div>
  );
}
