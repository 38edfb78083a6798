"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { TaskValidations } from "@/lib/runs/list-task-validations";
import { describeFlag } from "@/lib/validation/legitimacy-flags";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Badge, humanize } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import type { Jsonified } from "@/components/ui/jsonified";
import { LogViewer } from "@/components/editor/log-viewer";

export type RunView = Jsonified<TaskValidations["items"][number]["runs"][number]>;

function StoredLog({ runId }: { runId: string }) {
  const { data, error } = useQuery({
    queryKey: queryKeys.run(runId),
    queryFn: () => apiFetch<{ log: string | null; logTruncated: boolean }>(`/api/v1/runs/${runId}`),
  });
  if (error) return <ErrorText error={error} prefix="Could not load the log" />;
  if (!data) return <p className="text-xs text-slate-500">Loading log…</p>;
  if (!data.log) return <p className="text-xs text-slate-500">This run stored no log.</p>;
  return <LogViewer text={data.log} truncated={data.logTruncated} label="Run log" height={320} />;
}

/** One run: outcome, failure class with its reason, legitimacy flags, per-test expected vs actual, log. */
export function RunCard({ run }: { run: RunView }) {
  const [showLog, setShowLog] = useState(false);
  const others = run._count.testResults - run.testResults.length;
  return (
    <li className="rounded border border-slate-200 bg-white p-3 text-sm" data-testid="run-card" data-kind={run.kind}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{humanize(run.kind)}</span>
        {run.candidatePatch && <span className="text-xs text-slate-600">{run.candidatePatch.generator}</span>}
        {run.attempt > 0 && <span className="text-xs text-slate-500">attempt {run.attempt + 1}</span>}
        <Badge>{run.status}</Badge>
        {run.failureClass && <Badge tone="red">{humanize(run.failureClass)}</Badge>}
        {run.resolved !== null && (
          <Badge tone={run.resolved ? "green" : "red"}>{run.resolved ? "resolved" : "not resolved"}</Badge>
        )}
        {run.flags.map((flag) => (
          <Badge key={flag} tone="amber" title={describeFlag(flag)}>
            {flag}
          </Badge>
        ))}
        <span className="text-xs text-slate-600">
          exit {run.markerExitCode ?? run.exitCode ?? "—"}
          {run.markerExitCode !== null && run.exitCode !== null && run.markerExitCode !== run.exitCode
            ? ` (container ${run.exitCode})`
            : ""}
          {run.durationMs !== null ? ` · ${(run.durationMs / 1000).toFixed(1)} s` : ""}
          {run.build ? ` · image ${run.build.cacheHit ? "reused" : "built"}` : ""}
          {run.attempts > 1 ? ` · ${run.attempts} tries` : ""}
        </span>
      </div>
      {run.errorMessage && <p className="mt-1 text-xs text-red-800">{run.errorMessage}</p>}
      {run.flags.length > 0 && (
        <ul className="mt-1 list-disc pl-5 text-xs text-amber-900">
          {run.flags.map((flag) => (
            <li key={flag}>{describeFlag(flag)}</li>
          ))}
        </ul>
      )}
      {run.touchedTestPaths.length > 0 && (
        <div className="mt-1 text-xs text-amber-900" data-testid="touched-test-paths">
          Test files and settings the candidate touched:
          <ul className="pl-5 font-mono">
            {run.touchedTestPaths.map((path) => (
              <li key={path} className="break-all">
                {path}
              </li>
            ))}
          </ul>
        </div>
      )}
      {run.testResults.length > 0 && (
        <table className="mt-2 w-full text-xs">
          <caption className="sr-only">Tests of this run: expected and actual outcome</caption>
          <thead>
            <tr className="text-left text-slate-500">
              <th scope="col" className="py-0.5 font-medium">
                Test
              </th>
              <th scope="col" className="font-medium">
                Group
              </th>
              <th scope="col" className="font-medium">
                Expected
              </th>
              <th scope="col" className="font-medium">
                Actual
              </th>
            </tr>
          </thead>
          <tbody>
            {run.testResults.map((test) => (
              <tr
                key={test.testId}
                className={test.expected !== test.actual ? "bg-red-50" : ""}
                data-testid="test-result"
              >
                <td className="break-all py-0.5 pr-2 font-mono">{test.testId}</td>
                <td>{test.group === "FAIL_TO_PASS" ? "FAIL_TO_PASS" : "PASS_TO_PASS"}</td>
                <td>
                  <Badge>{test.expected}</Badge>
                </td>
                <td>
                  <Badge>{test.actual}</Badge>
                  {test.expected !== test.actual && <span className="sr-only"> (not as expected)</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {others > 0 && <p className="mt-1 text-xs text-slate-500">…and {others} other tests in the log.</p>}
      {run.status !== "QUEUED" && run.status !== "RUNNING" && (
        <>
          <Button size="sm" className="mt-2" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
            {showLog ? "Hide log" : "Show log"}
          </Button>
          {showLog && (
            <div className="mt-2">
              <StoredLog runId={run.id} />
            </div>
          )}
        </>
      )}
    </li>
  );
}
