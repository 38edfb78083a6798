"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { JobsOverview } from "@/lib/runs/jobs-overview";
import type { WorkerState } from "@/lib/worker-runtime/list-workers";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { TimeAgo } from "@/components/ui/time-ago";
import type { Jsonified } from "@/components/ui/jsonified";
import { useCan } from "@/components/auth/actor-context";
import { cell, Table } from "./jobs-table";

type Worker = Jsonified<JobsOverview>["workers"][number];

const STATE_TONE: Record<WorkerState, "green" | "blue" | "amber" | "red" | "gray"> = {
  working: "blue",
  idle: "green",
  draining: "amber",
  drained: "gray",
  "engine down": "red",
  gone: "amber",
};

const gigabytes = (bytes: number | null) => (bytes === null ? "—" : `${(bytes / 1024 ** 3).toFixed(1)} GB`);

function DrainButton({ worker }: { worker: Worker }) {
  const queryClient = useQueryClient();
  const drain = useMutation({
    mutationFn: (next: boolean) =>
      apiFetch(`/api/v1/workers/${encodeURIComponent(worker.id)}/drain`, { method: "POST", json: { drain: next } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.jobs() }),
  });
  const next = !worker.drainRequested;
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        onClick={() => drain.mutate(next)}
        disabled={drain.isPending || !worker.alive}
        aria-label={`${next ? "Drain" : "Resume"} worker ${worker.engineName ?? worker.hostname}`}
      >
        {next ? "Drain" : "Resume"}
      </Button>
      <ErrorText error={drain.error} />
    </>
  );
}

/** The pool: one row per worker and its Docker engine — what it holds, what it runs, whether it can take work. */
export function EnginePoolTable({ workers }: { workers: Worker[] }) {
  const canDrain = useCan("settings:manage");
  const head = [
    "Engine",
    "Worker",
    "Docker",
    "Free disk",
    "Images",
    "Runs in flight",
    "Last heartbeat",
    "State",
    ...(canDrain ? ["Action"] : []),
  ];
  return (
    <Table
      caption="Engines"
      head={head}
      empty="No worker has reported in. Start one with npm run worker (npm start runs one beside the web server)."
    >
      {workers.map((worker) => (
        <tr key={worker.id} data-testid="worker-row">
          <td className={cell}>
            <span className="font-medium">{worker.engineName ?? worker.hostname}</span>
            <div className="text-xs text-slate-600">{worker.dockerInfo}</div>
          </td>
          <td className={`${cell} font-mono text-xs`}>
            {worker.id} <span className="text-slate-600">pid {worker.pid}</span>
          </td>
          <td className={`${cell} text-xs`}>
            <Badge tone={worker.dockerOk ? "green" : "red"}>
              {worker.dockerOk ? `healthy${worker.dockerVersion ? ` · ${worker.dockerVersion}` : ""}` : "not answering"}
            </Badge>
          </td>
          <td className={cell}>{gigabytes(worker.freeDiskBytes)}</td>
          <td className={cell} title={`${worker.heldImageHashes.length} environment images`}>
            {worker.imagesHeld ?? "—"}
          </td>
          <td className={cell}>
            {worker.runningJobs} / {worker.concurrency}
          </td>
          <td className={`${cell} text-xs`}>
            <TimeAgo value={worker.lastSeenAt} />
          </td>
          <td className={cell}>
            <Badge tone={STATE_TONE[worker.state]}>{worker.state}</Badge>
          </td>
          {canDrain && (
            <td className={cell}>
              <DrainButton worker={worker} />
            </td>
          )}
        </tr>
      ))}
    </Table>
  );
}
