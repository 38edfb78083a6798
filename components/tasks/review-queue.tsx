"use client";
import { Link } from "@/components/ui/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { apiFetch, apiFetchAll } from "@/components/ui/api";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { inputClass } from "@/components/ui/field";
import { TaskDetail } from "./task-detail";
import { useShortcuts } from "./use-shortcuts";
import { UndoDecision } from "./decision-section";

type SavedView = { id: string; name: string; query: string };
type Claim = { claimed: { taskId: string; instanceId: string; leaseExpiresAt: string } | null };

/**
 * "n of m left": n is what the curator has not decided of the view now, m what they had not
 * decided when they opened it (more, if tasks arrive meanwhile), so m stays put as they work.
 */
function useQueueLeft(viewQuery: string) {
  const left = useQuery({
    queryKey: ["review-left", viewQuery],
    queryFn: () => apiFetch<{ left: number }>(`/api/v1/review/left?filters=${encodeURIComponent(viewQuery)}`),
  });
  const [total, setTotal] = useState<{ view: string; count: number } | null>(null);
  const now = left.data?.left;
  const current =
    now !== undefined && total?.view === viewQuery && total.count >= now
      ? total
      : now !== undefined
        ? { view: viewQuery, count: now }
        : null;
  // React's way to keep state in step with a prop: set it while rendering, not in an effect
  if (current && current !== total) setTotal(current);
  return now === undefined || !current ? null : `${now} of ${current.count} left`;
}

/**
 * Queue mode: "Review next" leases the next task of a view to this curator (nobody else
 * gets it while the lease lasts). j/k walk forward and back through the tasks seen here.
 * The keys work on arrival: "Review next" has the focus and j claims the first task.
 */
export function ReviewQueue({ initialView }: { initialView: string }) {
  const [viewQuery, setViewQuery] = useState(initialView);
  const [trail, setTrail] = useState<string[]>([]);
  const [position, setPosition] = useState(-1);
  const [exhausted, setExhausted] = useState(false);
  const [lastDecision, setLastDecision] = useState<{
    id: string;
    verdict: string;
    taskId: string;
    instanceId: string;
  } | null>(null);
  const views = useQuery({
    queryKey: ["views", "tasks"],
    queryFn: () => apiFetchAll<SavedView>("/api/v1/views?scope=tasks"),
  });
  const client = useQueryClient();
  const left = useQueueLeft(viewQuery);
  const nextButton = useRef<HTMLButtonElement>(null);
  useEffect(() => nextButton.current?.focus(), []);

  const claim = useMutation({
    mutationFn: (skip: string[]) =>
      apiFetch<Claim>("/api/v1/review/next", { method: "POST", json: { filters: viewQuery, skip } }),
    onSuccess: ({ claimed }) => {
      void client.invalidateQueries({ queryKey: ["review-left"] });
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
  // with a task open, its page owns the keys (j/k included)
  useShortcuts([{ key: "j", description: "Review the next task", run: next }], !current);

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
            {viewQuery && !views.data?.some((v) => v.query === viewQuery) && (
              <option value={viewQuery}>This list: {viewQuery}</option>
            )}
            {views.data?.map((v) => (
              <option key={v.id} value={v.query}>
                {v.name}
              </option>
            ))}
          </select>
        </label>
        <Button
          ref={nextButton}
          variant="primary"
          onClick={() => claim.mutate(trail)}
          disabled={claim.isPending}
          data-testid="review-next"
        >
          {claim.isPending ? "Finding the next task…" : current ? "Skip to next" : "Review next"}
        </Button>
        {left && (
          <span className="text-sm font-medium" data-testid="queue-left" role="status">
            {left}
          </span>
        )}
        <span className="text-xs text-slate-600">
          {trail.length
            ? `${position + 1} of ${trail.length} seen in this session`
            : "Tasks you decided or others are reviewing are skipped."}{" "}
          Pending tasks only, unless the view says otherwise.
        </span>
        <Link href={`/tasks?${viewQuery}`} className="ml-auto text-sm text-blue-700 underline">
          Open as a list
        </Link>
      </div>
      <ErrorText error={claim.error} />
      {lastDecision && (
        // deciding moves on at once, so a misclick (a key pressed on the wrong task) is undone from here
        <p
          role="status"
          className="flex flex-wrap items-center gap-2 text-sm text-slate-700"
          data-testid="queue-last-decision"
        >
          You decided {lastDecision.verdict.toLowerCase().replace("_", " ")} on {lastDecision.instanceId}.
          <UndoDecision
            decision={lastDecision}
            onUndone={() => {
              const back = trail.indexOf(lastDecision.taskId);
              setLastDecision(null);
              if (back >= 0) setPosition(back);
              void client.invalidateQueries({ queryKey: ["review-left"] });
              void client.invalidateQueries({ queryKey: ["task"] });
            }}
          />
        </p>
      )}
      {exhausted && (
        <p
          role="status"
          className="rounded border border-green-200 bg-green-50 p-3 text-sm text-green-900"
          data-testid="queue-empty"
        >
          Nothing left to review in this queue. Either everything is decided, or the rest is being reviewed by someone
          else right now.
        </p>
      )}
      {current ? (
        <TaskDetail
          key={current}
          taskId={current}
          queue={{ next, previous, hasPrevious: position > 0, decided: setLastDecision }}
        />
      ) : (
        !exhausted && (
          <p className="text-sm text-slate-600">
            Press “Review next” to get a task. Keys: j/k next/previous, a approve, r reject, n needs changes, e edit, v
            validate, ? help.
          </p>
        )
      )}
    </div>
  );
}
