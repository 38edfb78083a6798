"use client";
import { Link } from "@/components/ui/link";
import { useMutation, useQuery } from "@tanstack/react-query";
import type { JobsOverview } from "@/lib/runs/jobs-overview";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Badge, humanize } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { TimeAgo } from "@/components/ui/time-ago";
import type { Jsonified } from "@/components/ui/jsonified";
import { useCan } from "@/components/auth/actor-context";
import { DockerBanner } from "./docker-banner";
import { EnginePoolTable } from "./engine-pool-table";
import { cell, Table } from "./jobs-table";

type Overview = Jsonified<JobsOverview>;
type RunRow = Overview["activeRuns"][number];
type BuildRow = Overview["activeBuilds"][number];

function RunRows({ runs }: { runs: RunRow[] }) {
  return runs.map((run) => (
    <tr key={run.id}>
      <td className={cell}>
        <Link className="text-blue-800 underline" href={`/jobs/tasks/${run.task.id}`}>
          {run.task.instanceId}
        </Link>
      </td>
      <td className={cell}>
        {humanize(run.kind)}
        {run.attempt > 0 ? ` #${run.attempt + 1}` : ""}
      </td>
      <td className={cell}>
        <Badge>{run.status}</Badge>{" "}
        {run.phase ? <span className="text-xs text-slate-600">{humanize(run.phase)}</span> : null}
        {run.failureClass ? <Badge tone="red">{humanize(run.failureClass)}</Badge> : null}
      </td>
      <td className={`${cell} font-mono text-xs`}>{run.workerId ?? "—"}</td>
      <td className={cell}>{run.attempts}</td>
      <td className={`${cell} text-xs`}>{run.heartbeatAt ? <TimeAgo value={run.heartbeatAt} /> : "—"}</td>
      <td className={`${cell} max-w-md text-xs text-slate-700`}>{run.errorMessage ?? ""}</td>
    </tr>
  ));
}

function BuildRows({ builds }: { builds: BuildRow[] }) {
  return builds.map((build) => (
    <tr key={build.id}>
      <td className={cell}>
        <Link className="text-blue-800 underline" href={`/jobs/environments/${build.revision.environment.id}`}>
          {build.revision.environment.key}
        </Link>{" "}
        <span className="text-xs text-slate-500">rev {build.revision.number}</span>
      </td>
      <td className={cell}>Build</td>
      <td className={cell}>
        <Badge>{build.status}</Badge>
      </td>
      <td className={`${cell} font-mono text-xs`}>{build.workerId ?? "—"}</td>
      <td className={cell}>{build.attempts}</td>
      <td className={`${cell} text-xs`}>{build.heartbeatAt ? <TimeAgo value={build.heartbeatAt} /> : "—"}</td>
      <td className={`${cell} max-w-md text-xs text-slate-700`}>{build.errorMessage ?? ""}</td>
    </tr>
  ));
}

const JOB_HEAD = ["What", "Kind", "Status", "Worker", "Attempts", "Heartbeat", "Reason"];

/** Queued, running and failed jobs across all workers, each worker's heartbeat, and the raw queue. */
export function JobsDashboard() {
  const canPrune = useCan("settings:manage");
  const { data, error, isLoading } = useQuery({
    queryKey: queryKeys.jobs(),
    queryFn: () => apiFetch<Overview>("/api/v1/jobs"),
    refetchInterval: 3_000,
  });
  const prune = useMutation({ mutationFn: () => apiFetch("/api/v1/jobs/prune", { method: "POST" }) });

  if (isLoading) return <p>Loading jobs…</p>;
  if (error || !data) return <ErrorText error={error} prefix="Could not load the jobs" />;
  const active = [...RunRows({ runs: data.activeRuns }), ...BuildRows({ builds: data.activeBuilds })];
  const failed = [...RunRows({ runs: data.failedRuns }), ...BuildRows({ builds: data.failedBuilds })];

  return (
    <div className="flex flex-col gap-6">
      <div className="flex items-center gap-3">
        <h1 className="text-xl font-semibold text-slate-900">Jobs</h1>
        <span className="text-sm text-slate-600">
          {data.runCounts.QUEUED ?? 0} queued · {data.runCounts.RUNNING ?? 0} running · {data.runCounts.FAILED ?? 0}{" "}
          failed in 24 h
        </span>
        {canPrune && (
          <Button size="sm" className="ml-auto" onClick={() => prune.mutate()} disabled={prune.isPending}>
            {prune.isSuccess ? "Prune queued" : "Prune Docker now"}
          </Button>
        )}
      </div>
      <ErrorText error={prune.error} />
      <DockerBanner />

      <EnginePoolTable workers={data.workers} />

      <Table caption="Queued and running" head={JOB_HEAD} empty="Nothing queued or running.">
        {active}
      </Table>
      <Table caption="Failed in the last 24 hours" head={JOB_HEAD} empty="No failures in the last 24 hours.">
        {failed}
      </Table>
      <Table
        caption="Queue (graphile-worker)"
        head={["Job", "Key", "State", "Attempts", "Run at", "Locked by", "Last error"]}
        empty="The queue is empty."
      >
        {data.queue.map((job) => (
          <tr key={job.id}>
            <td className={cell}>{job.name}</td>
            <td className={`${cell} font-mono text-xs`}>{job.key ?? "—"}</td>
            <td className={cell}>
              <Badge tone={job.state === "failed" ? "red" : job.state === "running" ? "blue" : "gray"}>
                {job.state}
              </Badge>
            </td>
            <td className={cell}>
              {job.attempts}/{job.maxAttempts}
            </td>
            <td className={`${cell} text-xs`}>
              <TimeAgo value={job.runAt} />
            </td>
            <td className={`${cell} font-mono text-xs`}>{job.lockedBy ?? "—"}</td>
            <td className={`${cell} max-w-md text-xs text-red-800`}>{job.lastError ?? ""}</td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
