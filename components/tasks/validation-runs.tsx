"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { TaskDetail } from "@/lib/tasks/get-task";
import { apiFetch } from "@/components/ui/api";
import { Badge, humanize } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { TimeAgo } from "@/components/ui/time-ago";
import { LogViewer } from "@/components/editor/log-viewer";
import type { Jsonified } from "@/components/ui/jsonified";

type Run = Jsonified<TaskDetail["validationRuns"][number]>;

function RunLog({ taskId, runId }: { taskId: string; runId: string }) {
  const { data, error } = useQuery({
    queryKey: ["run-log", runId],
    queryFn: () => apiFetch<{ text: string; truncated: boolean }>(`/api/v1/tasks/${taskId}/runs/${runId}/log`),
  });
  if (error) return <ErrorText error={error} prefix="Could not load the log" />;
  if (!data) return <p className="text-xs text-slate-500">Loading log…</p>;
  if (!data.text) return <p className="text-xs text-slate-500">This run has no log yet.</p>;
  return <LogViewer text={data.text} truncated={data.truncated} label="Run log" height={320} />;
}

/** The task's validation runs: per-test expected vs actual, failure class, legitimacy flags and the log. */
export function ValidationRuns({ taskId, runs }: { taskId: string; runs: Run[] }) {
  const [openLog, setOpenLog] = useState<string | null>(null);
  if (runs.length === 0) return <p className="text-sm text-slate-600">No validation has run for this task yet.</p>;
  return (
    <ul className="flex flex-col gap-3" data-testid="validation-runs">
      {runs.map((run) => (
        <li key={run.id} className="rounded border border-slate-200 bg-white p-3 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{humanize(run.kind)}</span>
            {run.attempt > 0 && <span className="text-xs text-slate-500">attempt {run.attempt + 1}</span>}
            <Badge>{run.status}</Badge>
            {run.failureClass && <Badge tone="red">{humanize(run.failureClass)}</Badge>}
            {run.flags.map((flag) => (
              <Badge key={flag} tone="amber" title="legitimacy flag">
                {flag}
              </Badge>
            ))}
            <span className="text-xs text-slate-600">
              revision {run.revision.number} · exit {run.exitCode ?? "—"} · marker {run.markerExitCode ?? "—"}
              {run.durationMs !== null ? ` · ${(run.durationMs / 1000).toFixed(1)} s` : ""}
            </span>
            <span className="ml-auto text-xs text-slate-500">
              <TimeAgo value={run.createdAt} />
            </span>
          </div>
          {run.errorMessage && <p className="mt-1 text-xs text-red-700">{run.errorMessage}</p>}
          {run.testResults.length > 0 && (
            <table className="mt-2 w-full text-xs">
              <thead>
                <tr className="text-left text-slate-500">
                  <th className="py-0.5 font-medium">Test</th>
                  <th className="font-medium">Group</th>
                  <th className="font-medium">Expected</th>
                  <th className="font-medium">Actual</th>
                </tr>
              </thead>
              <tbody>
                {run.testResults.map((t) => (
                  <tr key={t.testId} className={t.expected !== t.actual ? "bg-red-50" : ""}>
                    <td className="break-all py-0.5 pr-2 font-mono">{t.testId}</td>
                    <td>{t.group}</td>
                    <td>
                      <Badge>{t.expected}</Badge>
                    </td>
                    <td>
                      <Badge>{t.actual}</Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Button size="sm" className="mt-2" aria-expanded={openLog === run.id} onClick={() => setOpenLog(openLog === run.id ? null : run.id)}>
            {openLog === run.id ? "Hide log" : "Show log"}
          </Button>
          {openLog === run.id && (
            <div className="mt-2">
              <RunLog taskId={taskId} runId={run.id} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
