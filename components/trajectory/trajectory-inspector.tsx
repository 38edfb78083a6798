"use client";
import Link from "next/link";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { Badge } from "@/components/ui/badge";
import type { TrajectoryDetail, TrajectoryStepPreview } from "@/lib/trajectories/get-trajectory";
import { StepDetail } from "./step-detail";

const PAGE = 200;

function Summary({ t }: { t: TrajectoryDetail }) {
  const diagnosis = t.diagnosis as { rootCause?: string; text?: string; defects?: string[] } | null;
  return (
    <header className="mb-4 space-y-2">
      <h1 className="text-xl font-semibold">
        {t.role === "REVIEWER" ? "Reviewer" : "Solver"} trajectory <span className="font-mono text-base">{t.externalId}</span>
      </h1>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-700">
        <div>
          <dt className="inline text-slate-500">Task </dt>
          <dd className="inline">{t.task ? <Link className="text-blue-700 underline" href={`/tasks/${t.task.id}`}>{t.task.instanceId}</Link> : "—"}</dd>
        </div>
        <div><dt className="inline text-slate-500">Model </dt><dd className="inline">{t.model ?? "—"}</dd></div>
        <div><dt className="inline text-slate-500">Format </dt><dd className="inline">{t.format}</dd></div>
        <div><dt className="inline text-slate-500">Steps </dt><dd className="inline">{t.stepCount}</dd></div>
        <div><dt className="inline text-slate-500">Tokens </dt><dd className="inline">{t.tokensIn ?? "—"} in / {t.tokensOut ?? "—"} out</dd></div>
        <div><dt className="inline text-slate-500">Cost </dt><dd className="inline">{t.costUsd != null ? `$${t.costUsd.toFixed(2)}` : "—"}</dd></div>
        <div><dt className="inline text-slate-500">Exit </dt><dd className="inline">{t.exitStatus ?? "—"}</dd></div>
      </dl>
      {t.decision && (
        <p className="text-sm" data-testid="reviewer-verdict">
          Verdict <Badge>{t.decision}</Badge>
          {t.confidence != null && <> at confidence {t.confidence.toFixed(2)}</>}
          {t.candidatePatch && (
            <>
              {" "}
              on {t.candidatePatch.generator}&apos;s patch — ground truth:{" "}
              {t.candidatePatch.resolved == null ? <Badge>not validated yet</Badge> : t.candidatePatch.resolved ? <Badge tone="green">resolves</Badge> : <Badge tone="red">does not resolve</Badge>}
              {t.candidatePatch.resolved != null && (t.decision === "APPROVE") !== t.candidatePatch.resolved && <Badge tone="red">reviewer was wrong</Badge>}
            </>
          )}
        </p>
      )}
      {diagnosis && (diagnosis.rootCause || diagnosis.text) && <p className="max-w-3xl text-sm text-slate-700">Diagnosis: {diagnosis.rootCause ?? diagnosis.text}</p>}
    </header>
  );
}

export function TrajectoryInspector({ trajectoryId }: { trajectoryId: string }) {
  const trajectory = useQuery({ queryKey: ["trajectory", trajectoryId], queryFn: () => apiFetch<TrajectoryDetail>(`/api/v1/trajectories/${trajectoryId}`) });
  const steps = useInfiniteQuery({
    queryKey: ["trajectory-steps", trajectoryId],
    initialPageParam: "",
    queryFn: ({ pageParam }) =>
      apiFetch<{ items: TrajectoryStepPreview[]; nextCursor: string | null }>(`/api/v1/trajectories/${trajectoryId}/steps?limit=${PAGE}${pageParam ? `&cursor=${pageParam}` : ""}`),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const rows = steps.data?.pages.flatMap((page) => page.items) ?? [];
  const [selected, setSelected] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => listRef.current, estimateSize: () => 64, overscan: 10 });
  const items = virtualizer.getVirtualItems();
  const lastItem = items[items.length - 1];

  useEffect(() => {
    if (lastItem && lastItem.index >= rows.length - 20 && steps.hasNextPage && !steps.isFetchingNextPage) void steps.fetchNextPage();
  }, [lastItem, rows.length, steps]);

  // j/k answer as soon as the page opens: the step list takes focus once, unless the reader already put it elsewhere
  const focusedOnOpen = useRef(false);
  useEffect(() => {
    if (focusedOnOpen.current || !rows.length || !listRef.current) return;
    focusedOnOpen.current = true;
    if (document.activeElement === document.body) listRef.current.focus({ preventScroll: true });
  }, [rows.length]);

  function onKeyDown(event: React.KeyboardEvent) {
    const move = event.key === "j" || event.key === "ArrowDown" ? 1 : event.key === "k" || event.key === "ArrowUp" ? -1 : 0;
    if (!move || !rows.length) return;
    event.preventDefault();
    const next = Math.min(rows.length - 1, Math.max(0, selected + move));
    setSelected(next);
    virtualizer.scrollToIndex(next, { align: "auto" });
  }

  if (trajectory.error) return <p role="alert">Could not load the trajectory: {trajectory.error.message}</p>;
  if (!trajectory.data) return <p>Loading trajectory…</p>;
  const current = rows[selected];
  return (
    <div>
      <Summary t={trajectory.data} />
      <div className="grid grid-cols-[minmax(16rem,1fr)_2fr] gap-4">
        <div
          ref={listRef}
          role="listbox"
          aria-label="Steps (j/k or arrows to move)"
          aria-activedescendant={current ? `step-${current.index}` : undefined}
          tabIndex={0}
          onKeyDown={onKeyDown}
          className="h-[70vh] overflow-auto rounded border bg-white"
        >
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {items.map((item) => {
              const step = rows[item.index];
              return (
                <div
                  key={step.id}
                  id={`step-${step.index}`}
                  role="option"
                  aria-selected={item.index === selected}
                  onClick={() => setSelected(item.index)}
                  style={{ position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)`, height: item.size }}
                  className={`cursor-pointer border-b px-3 py-2 text-xs ${item.index === selected ? "bg-blue-50" : "hover:bg-slate-50"}`}
                >
                  <div className="font-medium">Step {step.index + 1}</div>
                  <div className="truncate font-mono text-slate-600">{step.action.text ?? step.thought.text ?? "(no action)"}</div>
                </div>
              );
            })}
          </div>
          {!rows.length && !steps.isLoading && <p className="p-3 text-sm text-slate-600">This trajectory has no steps.</p>}
        </div>
        {current ? <StepDetail trajectoryId={trajectoryId} step={current} /> : <div />}
      </div>
    </div>
  );
}
