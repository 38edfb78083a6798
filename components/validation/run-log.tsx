"use client";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useSyncExternalStore } from "react";
import type { RunView } from "./run-card";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Badge, humanize } from "@/components/ui/badge";
import { ErrorText } from "@/components/ui/error-text";
import { LogViewer } from "@/components/editor/log-viewer";

type StoredRun = RunView & { taskId: string; log: string | null };

const subscribeToHash = (onChange: () => void) => {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
};
/** The line a link asked for, as GitHub writes it: #L42. */
const lineOfHash = () => Number(/^#L(\d+)$/.exec(window.location.hash)?.[1]) || null;

/**
 * One run's stored log on a page of its own, opened at the line its link names (the evidence
 * matrix links here): `initialLine` is the link's ?line=, known to the server; a #L fragment
 * (older links, or one typed in the address bar) takes over once the page runs.
 */
export function RunLog({ runId, initialLine }: { runId: string; initialLine: number | null }) {
  const line = useSyncExternalStore(subscribeToHash, lineOfHash, () => null) ?? initialLine;
  const { data: run, error } = useQuery({
    queryKey: queryKeys.run(runId),
    queryFn: () => apiFetch<StoredRun>(`/api/v1/runs/${runId}`),
  });
  if (error) return <ErrorText error={error} prefix="Could not load the run" />;
  if (!run) return <p className="text-sm text-slate-500">Loading log…</p>;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold text-slate-900">Log of a {humanize(run.kind).toLowerCase()} run</h1>
        <Badge>{run.status}</Badge>
        <Link className="text-sm text-blue-800 underline" href={`/tasks/${run.taskId}#evidence-section`}>
          Back to the task&apos;s evidence
        </Link>
      </div>
      {run.log ? (
        <LogViewer
          key={line ?? 0}
          text={run.log}
          truncated={run.logTruncated}
          label="Run log"
          height="70vh"
          line={line}
        />
      ) : (
        <p className="text-sm text-slate-600">This run stored no log.</p>
      )}
    </div>
  );
}
