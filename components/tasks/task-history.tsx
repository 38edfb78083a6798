"use client";
import { useQuery } from "@tanstack/react-query";
import type { TaskHistoryEvent } from "@/lib/tasks/task-history";
import { apiFetchAll } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { humanize } from "@/components/ui/badge";
import { ErrorText } from "@/components/ui/error-text";
import { TimeAgo } from "@/components/ui/time-ago";
import type { Jsonified } from "@/components/ui/jsonified";

const HIDDEN_KEYS = new Set(["version", "dockerfile", "evalScript"]);

function describeChange(before: unknown, after: unknown): string {
  const a = (after ?? {}) as Record<string, unknown>;
  const b = (before ?? {}) as Record<string, unknown>;
  return Object.keys(a)
    .filter((k) => !HIDDEN_KEYS.has(k) && a[k] !== null && !(Array.isArray(a[k]) && (a[k] as unknown[]).length === 0))
    .map((k) => {
      const show = (v: unknown) =>
        Array.isArray(v) ? v.map(String).join(", ") || "—" : v === null || v === undefined ? "—" : String(v);
      return k in b && show(b[k]) !== show(a[k]) ? `${k}: ${show(b[k])} → ${show(a[k])}` : `${k}: ${show(a[k])}`;
    })
    .join(" · ");
}

/** Who did what to this task and its environment, and when (from the audit log). */
export function TaskHistory({ taskId, version }: { taskId: string; version: number }) {
  const { data, error } = useQuery({
    queryKey: queryKeys.taskHistory(taskId, version),
    queryFn: () => apiFetchAll<Jsonified<TaskHistoryEvent>>(`/api/v1/tasks/${taskId}/history`),
  });
  if (error) return <ErrorText error={error} prefix="Could not load the history" />;
  if (!data) return <p className="text-sm text-slate-500">Loading history…</p>;
  if (data.length === 0) return <p className="text-sm text-slate-500">Nothing has happened to this task yet.</p>;
  return (
    <ol className="flex flex-col gap-2 text-sm" data-testid="task-history">
      {data.map((event) => (
        <li key={event.id} className="rounded border border-slate-200 bg-white px-3 py-2">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{event.actor?.name ?? "system"}</span>
            <span data-testid="history-action">{humanize(event.action.replace(/^(task|environment)\./, ""))}</span>
            {event.entityType === "environment" && <span className="text-xs text-slate-500">(environment)</span>}
            <span className="ml-auto text-xs text-slate-500">
              <TimeAgo value={event.at} />
            </span>
          </div>
          <p className="mt-1 break-words text-xs text-slate-600">{describeChange(event.before, event.after)}</p>
        </li>
      ))}
    </ol>
  );
}
