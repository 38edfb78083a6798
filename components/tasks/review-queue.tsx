"use client";
import Link from "next/link";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { apiFetch, apiFetchAll } from "@/components/ui/api";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { inputClass } from "@/components/ui/field";
import { TaskDetail } from "./task-detail";

type SavedView = { id: string; name: string; query: string };
type Claim = { claimed: { taskId: string; instanceId: string; leaseExpiresAt: string } | null };

/**
 * Queue mode: "Review next" leases the next task of a view to this curator (nobody else
 * gets it while the lease lasts). j/k walk forward and back through the tasks seen here.
 */
export function ReviewQueue({ initialView }: { initialView: string }) {
  const [viewQuery, setViewQuery] = useState(initialView);
  const [trail, setTrail] = useState<string[]>([]);
  const [position, setPosition] = useState(-1);
  const [exhausted, setExhausted] = useState(false);
  const views = useQuery({ queryKey: ["views", "tasks"], queryFn: () => apiFetchAll<SavedView>("/api/v1/views?scope=tasks") });

  const claim = useMutation({
    mutationFn: (skip: string[]) => apiFetch<Claim>("/api/v1/review/next", { method: "POST", json: { filters: viewQuery, skip } }),
    onSuccess: ({ claimed }) => {
      if (!claimed) return setExhausted(true);
      setExhausted(false);
      setTrail((t) => [...t.slice(0, position + 1), claimed.taskId]);
      setPosition((p) => p + 1);
    },
  });

  // leaving the queue gives the lease back at once
  useEffect(() => () => void fetch("/api/v1/review/lease", { method: "DELETE", keepalive: true }), []);

  const next = () => {
    if (position < trail.length - 1) setPosition(position + 1);
    else claim.mutate(trail);
  };
  const previous = () => setPosition((p) => Math.max(0, p - 1));
  const current = position >= 0 ? trail[position] : null;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3">
        <label className="flex flex-col text-xs font-medium text-slate-700">
          Queue
          <select
            className={inputClass}
            value={viewQuery}
            onChange={(e) => {
              setViewQuery(e.target.value);
              setTrail([]);
              setPosition(-1);
              setExhausted(false);
            }}
          >
            <option value="">All pending tasks</option>
            {viewQuery && !views.data?.some((v) => v.query === viewQuery) && <option value={viewQuery}>This list: {viewQuery}</option>}
            {views.data?.map((v) => (
              <option key={v.id} value={v.query}>
                {v.name}
              </option>
            ))}
          </select>
        </label>
        <Button variant="primary" onClick={() => claim.mutate(trail)} disabled={claim.isPending} data-testid="review-next">
          {claim.isPending ? "Finding the next task…" : current ? "Skip to next" : "Review next"}
        </Button>
        <span className="text-xs text-slate-600">
          {trail.length ? `${position + 1} of ${trail.length} seen in this session` : "Tasks you decided or others are reviewing are skipped."} Pending tasks only, unless the view says otherwise.
        </span>
        <Link href={`/tasks?${viewQuery}`} className="ml-auto text-sm text-blue-700 underline">
          Open as a list
        </Link>
      </div>
      <ErrorText error={claim.error} />
      {exhausted && (
        <p role="status" className="rounded border border-green-200 bg-green-50 p-3 text-sm text-green-900" data-testid="queue-empty">
          Nothing left to review in this queue. Either everything is decided, or the rest is being reviewed by someone else right now.
        </p>
      )}
      {current ? (
        <TaskDetail key={current} taskId={current} queue={{ next, previous, hasPrevious: position > 0 }} />
      ) : (
        !exhausted && <p className="text-sm text-slate-600">Press “Review next” to get a task. Keys: j/k next/previous, a approve, r reject, n needs changes, e edit, v validate, ? help.</p>
      )}
    </div>
  );
}
