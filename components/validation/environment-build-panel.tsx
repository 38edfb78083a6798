"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { EnvironmentBuilds } from "@/lib/builds/list-environment-builds";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { TimeAgo } from "@/components/ui/time-ago";
import type { Jsonified } from "@/components/ui/jsonified";
import { useCan } from "@/components/auth/actor-context";
import { LogViewer } from "@/components/editor/log-viewer";
import { DockerBanner } from "@/components/jobs/docker-banner";
import { LiveLog } from "@/components/jobs/live-log";

type Builds = Jsonified<EnvironmentBuilds>;

function StoredBuildLog({ buildId }: { buildId: string }) {
  const { data, error } = useQuery({
    queryKey: ["build", buildId],
    queryFn: () => apiFetch<{ log: string | null }>(`/api/v1/builds/${buildId}`),
  });
  if (error) return <ErrorText error={error} prefix="Could not load the build log" />;
  if (!data) return <p className="text-xs text-slate-500">Loading log…</p>;
  return data.log ? (
    <LogViewer text={data.log} label="Build log" height={320} />
  ) : (
    <p className="text-xs text-slate-500">This build stored no log.</p>
  );
}

/** An environment's image builds: Build (optionally without cache), cancel, retry, the live log and the history. */
export function EnvironmentBuildPanel({ environmentId }: { environmentId: string }) {
  const client = useQueryClient();
  const canRun = useCan("jobs:run");
  const [noCache, setNoCache] = useState(false);
  const [openLog, setOpenLog] = useState<string | null>(null);
  const key = queryKeys.environmentBuilds(environmentId);
  const { data, error, isLoading } = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<Builds>(`/api/v1/builds?environmentId=${encodeURIComponent(environmentId)}`),
    refetchInterval: (query) => (query.state.data?.active ? 1_500 : false),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: key });
  const build = useMutation({
    mutationFn: () => apiFetch("/api/v1/builds", { method: "POST", json: { environmentId, noCache } }),
    onSettled: refresh,
  });
  const cancel = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/v1/builds/${id}/cancel`, { method: "POST" }),
    onSettled: refresh,
  });
  const retry = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/v1/builds/${id}/retry`, { method: "POST", json: {} }),
    onSettled: refresh,
  });

  if (isLoading) return <p className="text-sm">Loading builds…</p>;
  if (error || !data) return <ErrorText error={error} prefix="Could not load the builds" />;
  const running = data.items.find((b) => b.status === "QUEUED" || b.status === "RUNNING");
  const revision = data.environment.currentRevision;

  return (
    <div role="group" className="flex flex-col gap-3" aria-label="Image builds" data-testid="build-panel">
      {canRun && (
        <div className="flex flex-wrap items-center gap-3">
          <Button
            onClick={() => build.mutate()}
            disabled={!revision || !!running || build.isPending}
            data-testid="build-button"
          >
            {build.isPending ? "Queueing…" : `Build revision ${revision?.number ?? "—"}`}
          </Button>
          <label className="flex items-center gap-1 text-sm">
            <input type="checkbox" checked={noCache} onChange={(e) => setNoCache(e.target.checked)} /> without the build
            cache
          </label>
          {running && (
            <Button variant="danger" onClick={() => cancel.mutate(running.id)} disabled={cancel.isPending}>
              Cancel build
            </Button>
          )}
          <span className="text-xs text-slate-600">
            Images are keyed by the build context: an eval-script-only edit reuses the image.
          </span>
        </div>
      )}
      <ErrorText error={build.error ?? cancel.error ?? retry.error} />
      {running && <DockerBanner />}
      {running && (
        <LiveLog
          key={running.id}
          url={`/api/v1/builds/${running.id}/log`}
          label={`Live build log: revision ${running.revision.number}`}
          onEnd={refresh}
        />
      )}

      {data.items.length === 0 ? (
        <p className="text-sm text-slate-600">No build yet. Validations build the image when they need it.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Builds of this environment, newest first</caption>
          <thead className="text-xs text-slate-600">
            <tr>
              {["Revision", "Status", "Image", "Duration", "When"].map((h) => (
                <th key={h} scope="col" className="py-1 font-medium">
                  {h}
                </th>
              ))}
              <th scope="col" className="py-1 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data.items.map((b) => (
              <tr key={b.id} className="align-top">
                <td className="py-1">{b.revision.number}</td>
                <td className="py-1">
                  <Badge>{b.status}</Badge> {b.cacheHit && <Badge tone="blue">cache hit</Badge>}
                  {b.errorMessage && <p className="mt-1 max-w-md text-xs text-red-800">{b.errorMessage}</p>}
                </td>
                <td className="py-1 font-mono text-xs">{b.imageTag ?? "—"}</td>
                <td className="py-1">{b.durationMs !== null ? `${(b.durationMs / 1000).toFixed(1)} s` : "—"}</td>
                <td className="py-1 text-xs">
                  <TimeAgo value={b.createdAt} />
                </td>
                <td className="flex gap-1 py-1">
                  {b.status !== "QUEUED" && b.status !== "RUNNING" && (
                    <Button
                      size="sm"
                      aria-expanded={openLog === b.id}
                      onClick={() => setOpenLog(openLog === b.id ? null : b.id)}
                    >
                      {openLog === b.id ? "Hide log" : "Log"}
                    </Button>
                  )}
                  {canRun && (b.status === "FAILED" || b.status === "CANCELLED") && (
                    <Button size="sm" onClick={() => retry.mutate(b.id)} disabled={retry.isPending || !!running}>
                      Retry
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {openLog && <StoredBuildLog key={openLog} buildId={openLog} />}
    </div>
  );
}
