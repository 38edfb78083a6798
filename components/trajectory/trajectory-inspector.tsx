"use client";
import { Link } from "@/components/ui/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Badge } from "@/components/ui/badge";
import type { TrajectoryDetail } from "@/lib/trajectories/get-trajectory";
import { STEP_KINDS, type StepKind } from "@/lib/trajectories/step-kind";
import type { SearchTerms } from "@/lib/trajectories/highlight";
import { StepDetail, stepQuery } from "./step-detail";
import { KIND_STYLE, StepKindBadge } from "./step-kind-badge";
import { prefetchOpeningWindow, useStepWindows } from "./use-step-windows";
import { SearchBar } from "./search-bar";

export type InspectorLink = {
  step: number | null;
  lines: [number, number] | null;
  q: string | null;
  regex: boolean;
  kind: StepKind | null;
};

const ROW_HEIGHT = 52;
/** the step list's box assumed before it can be measured (server render, first paint): its first rows come with the HTML */
const SERVER_RECT = { width: 480, height: 640 };

function Summary({ t }: { t: TrajectoryDetail }) {
  const diagnosis = t.diagnosis as { rootCause?: string; text?: string; defects?: string[] } | null;
  return (
    <header className="mb-3 space-y-2">
      <h1 className="text-xl font-semibold">
        {t.role === "REVIEWER" ? "Reviewer" : "Solver"} trajectory{" "}
        <span className="font-mono text-base">{t.externalId}</span>
      </h1>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-700">
        <div>
          <dt className="inline text-slate-500">Task </dt>
          <dd className="inline">
            {t.task ? (
              <Link className="text-blue-700 underline" href={`/tasks/${t.task.id}`}>
                {t.task.instanceId}
              </Link>
            ) : (
              "—"
            )}
          </dd>
        </div>
        <div>
          <dt className="inline text-slate-500">Model </dt>
          <dd className="inline">{t.model ?? "—"}</dd>
        </div>
        <div>
          <dt className="inline text-slate-500">Format </dt>
          <dd className="inline">{t.format}</dd>
        </div>
        <div>
          <dt className="inline text-slate-500">Steps </dt>
          <dd className="inline">{t.stepCount}</dd>
        </div>
        <div>
          <dt className="inline text-slate-500">Tokens </dt>
          <dd className="inline">
            {t.tokensIn ?? "—"} in / {t.tokensOut ?? "—"} out
          </dd>
        </div>
        <div>
          <dt className="inline text-slate-500">Cost </dt>
          <dd className="inline">{t.costUsd != null ? `$${t.costUsd.toFixed(2)}` : "—"}</dd>
        </div>
        <div>
          <dt className="inline text-slate-500">Exit </dt>
          <dd className="inline">{t.exitStatus ?? "—"}</dd>
        </div>
      </dl>
      {t.decision && (
        <p className="text-sm" data-testid="reviewer-verdict">
          Verdict <Badge>{t.decision}</Badge>
          {t.confidence != null && <> at confidence {t.confidence.toFixed(2)}</>}
          {t.candidatePatch && (
            <>
              {" "}
              on {t.candidatePatch.generator}&apos;s patch — ground truth:{" "}
              {t.candidatePatch.resolved == null ? (
                <Badge>not validated yet</Badge>
              ) : t.candidatePatch.resolved ? (
                <Badge tone="green">resolves</Badge>
              ) : (
                <Badge tone="red">does not resolve</Badge>
              )}
              {t.candidatePatch.resolved != null && (t.decision === "APPROVE") !== t.candidatePatch.resolved && (
                <Badge tone="red">reviewer was wrong</Badge>
              )}
            </>
          )}
        </p>
      )}
      {diagnosis && (diagnosis.rootCause || diagnosis.text) && (
        <p className="max-w-3xl text-sm text-slate-700">Diagnosis: {diagnosis.rootCause ?? diagnosis.text}</p>
      )}
      <Related t={t} />
    </header>
  );
}

/** The task's other trajectories (the same candidate's other reviewers first), each to open or to compare with this one. */
function Related({ t }: { t: TrajectoryDetail }) {
  const anyOther = (
    <Link
      className="text-sm text-blue-700 underline"
      href={`/trajectories/compare?a=${t.id}`}
      data-testid="compare-any"
    >
      Compare with any trajectory…
    </Link>
  );
  if (!t.related.length) return anyOther;
  const sameCandidate = (r: TrajectoryDetail["related"][number]) =>
    !!t.candidatePatchId && r.candidatePatchId === t.candidatePatchId;
  const ordered = [...t.related].sort((x, y) => Number(sameCandidate(y)) - Number(sameCandidate(x)));
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-slate-700">
        Other trajectories on this task ({t.related.length}) — open or compare
      </summary>
      <ul className="mt-1 space-y-0.5">
        {ordered.map((r) => (
          <li key={r.id}>
            <Link className="font-mono text-blue-700 underline" href={`/trajectories/${r.id}`}>
              {r.externalId}
            </Link>{" "}
            <span className="text-slate-600">
              {r.role.toLowerCase()}, {r.model ?? "unknown model"}
              {r.decision && `, ${r.decision}`}
              {sameCandidate(r) && ", same candidate patch"}
            </span>{" "}
            <Link className="text-blue-700 underline" href={`/trajectories/compare?a=${t.id}&b=${r.id}`}>
              Compare with this one
            </Link>
          </li>
        ))}
      </ul>
      {anyOther}
    </details>
  );
}

/** Counts per kind, each a filter of the list (pressed again: all steps). */
function KindFilter({
  counts,
  total,
  kind,
  onKind,
}: {
  counts: TrajectoryDetail["kindCounts"];
  total: number;
  kind: StepKind | null;
  onKind(kind: StepKind | null): void;
}) {
  return (
    <div role="group" aria-label="Filter steps by kind" className="flex flex-wrap items-center gap-1 text-xs">
      <button
        type="button"
        aria-pressed={kind === null}
        onClick={() => onKind(null)}
        className={`rounded px-2 py-0.5 ring-1 ring-inset ring-slate-300 ${kind === null ? "bg-slate-800 text-white" : "bg-white"}`}
      >
        All {total.toLocaleString()}
      </button>
      {STEP_KINDS.filter((k) => counts[k]).map((k) => (
        <button
          key={k}
          type="button"
          aria-pressed={kind === k}
          onClick={() => onKind(kind === k ? null : k)}
          className={`rounded px-2 py-0.5 ring-1 ring-inset ${KIND_STYLE[k].className} ${kind === k ? "outline outline-2 outline-slate-800" : ""}`}
        >
          <span aria-hidden="true">{KIND_STYLE[k].icon}</span> {KIND_STYLE[k].label} {counts[k]!.toLocaleString()}
        </button>
      ))}
    </div>
  );
}

function linkQuery(link: InspectorLink): string {
  const params = new URLSearchParams();
  if (link.step !== null) params.set("step", String(link.step + 1));
  if (link.lines)
    params.set("lines", link.lines[0] === link.lines[1] ? String(link.lines[0]) : `${link.lines[0]}-${link.lines[1]}`);
  if (link.kind) params.set("kind", link.kind);
  if (link.q) params.set("q", link.q);
  if (link.q && link.regex) params.set("regex", "1");
  return params.toString();
}

export function TrajectoryInspector({ trajectoryId, initial }: { trajectoryId: string; initial: InspectorLink }) {
  const trajectory = useQuery({
    queryKey: queryKeys.trajectory(trajectoryId),
    queryFn: () => apiFetch<TrajectoryDetail>(`/api/v1/trajectories/${trajectoryId}`),
  });
  // the opening step and its window are asked for beside the trajectory, not after it
  const client = useQueryClient();
  const prefetched = useRef(false);
  useEffect(() => {
    if (prefetched.current) return;
    prefetched.current = true;
    void client.prefetchQuery(stepQuery(trajectoryId, initial.step ?? 0));
    if (!initial.kind) prefetchOpeningWindow(client, trajectoryId, initial.step ?? 0);
  }, [client, trajectoryId, initial.step, initial.kind]);
  const [kind, setKind] = useState<StepKind | null>(initial.kind);
  const [selected, setSelected] = useState<{ position: number; index: number | null }>({
    position: initial.kind ? 0 : (initial.step ?? 0),
    index: initial.step ?? 0,
  });
  const [lines, setLines] = useState<[number, number] | null>(initial.lines);
  const [search, setSearch] = useState<SearchTerms | null>(initial.q ? { q: initial.q, regex: initial.regex } : null);
  const listRef = useRef<HTMLDivElement>(null);
  const count = trajectory.data ? (kind ? (trajectory.data.kindCounts[kind] ?? 0) : trajectory.data.stepCount) : 0;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => listRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    initialRect: SERVER_RECT,
  });
  const items = virtualizer.getVirtualItems();
  const visible = useMemo(() => [...items.map((i) => i.index), selected.position], [items, selected.position]);
  const { rowAt, locate } = useStepWindows(trajectoryId, kind, visible);
  const selectedIndex = kind ? (rowAt(selected.position)?.index ?? selected.index) : selected.position;

  // the URL is the permalink: the step, the observation's lines, the filter and the search
  useEffect(() => {
    if (!trajectory.data || selectedIndex === null) return;
    const query = linkQuery({ step: selectedIndex, lines, kind, q: search?.q ?? null, regex: !!search?.regex });
    window.history.replaceState(window.history.state, "", `${window.location.pathname}?${query}`);
  }, [trajectory.data, selectedIndex, lines, kind, search]);

  const selectPosition = useCallback(
    (position: number, index: number | null, keepLines = false) => {
      const clamped = Math.max(0, Math.min(count - 1, position));
      setSelected({ position: clamped, index: clamped === position ? index : null });
      if (!keepLines) setLines(null);
      virtualizer.scrollToIndex(clamped, { align: "center" });
    },
    [count, virtualizer],
  );

  /** Any step, wherever it lies: one request for its window (none when unfiltered). */
  const jumpToStep = useCallback(
    async (index: number, keepLines = false) => {
      // filtered, the step found may be the next one of the kind: the row at the position says which
      selectPosition(await locate(index), kind ? null : index, keepLines);
    },
    [selectPosition, locate, kind],
  );

  // a permalink opens at its step (and lines) once the trajectory is known
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !trajectory.data || !count) return;
    opened.current = true;
    if (initial.step !== null) void jumpToStep(Math.min(initial.step, trajectory.data.stepCount - 1), true);
  }, [trajectory.data, count, initial.step, jumpToStep]);

  // a new filter keeps the selected step when it is of that kind, else selects the next one that is
  const keptStep = useRef<number | null>(null);
  function changeKind(next: StepKind | null) {
    keptStep.current = selectedIndex ?? 0;
    setKind(next);
    setSelected({ position: 0, index: null });
  }
  useEffect(() => {
    const keep = keptStep.current;
    if (keep === null) return;
    keptStep.current = null;
    void jumpToStep(keep);
  }, [kind, jumpToStep]);

  // j/k answer as soon as the page opens: the step list takes focus once, unless the reader already put it elsewhere
  const focusedOnOpen = useRef(false);
  useEffect(() => {
    if (focusedOnOpen.current || !count || !listRef.current) return;
    focusedOnOpen.current = true;
    if (document.activeElement === document.body) listRef.current.focus({ preventScroll: true });
  }, [count]);

  function onKeyDown(event: React.KeyboardEvent) {
    const moves: Record<string, number> = { j: 1, ArrowDown: 1, k: -1, ArrowUp: -1, PageDown: 10, PageUp: -10 };
    let target: number | null = null;
    if (event.key in moves) target = selected.position + moves[event.key];
    else if (event.key === "Home") target = 0;
    else if (event.key === "End") target = count - 1;
    if (target === null || !count) return;
    event.preventDefault();
    selectPosition(target, kind ? (rowAt(target)?.index ?? null) : target);
  }

  if (trajectory.error) return <p role="alert">Could not load the trajectory: {trajectory.error.message}</p>;
  if (!trajectory.data) return <p>Loading trajectory…</p>;
  const t = trajectory.data;
  return (
    <div>
      <Summary t={t} />
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <KindFilter counts={t.kindCounts} total={t.stepCount} kind={kind} onKind={changeKind} />
        <GoToStep total={t.stepCount} onGo={(index) => void jumpToStep(index)} />
        <button
          type="button"
          className="rounded border px-2 py-0.5 text-xs"
          onClick={() => selectPosition(0, kind ? null : 0)}
        >
          First step
        </button>
        <button
          type="button"
          className="rounded border px-2 py-0.5 text-xs"
          onClick={() => selectPosition(count - 1, kind ? null : count - 1)}
        >
          Last step
        </button>
      </div>
      <SearchBar
        trajectoryId={trajectoryId}
        kind={kind}
        initial={search}
        currentIndex={selectedIndex}
        onSearch={setSearch}
        onMatch={(index) => void jumpToStep(index)}
      />
      <div className="grid grid-cols-[minmax(16rem,1fr)_2fr] gap-4">
        <div
          ref={listRef}
          role="listbox"
          aria-label="Steps (j/k or arrows to move, Home/End for the first/last)"
          aria-activedescendant={selectedIndex !== null ? `step-${selectedIndex}` : undefined}
          tabIndex={0}
          onKeyDown={onKeyDown}
          className="h-[70vh] overflow-auto rounded border bg-white"
        >
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {items.map((item) => {
              const row = rowAt(item.index);
              const isSelected = item.index === selected.position;
              return (
                <div
                  key={item.key}
                  id={row ? `step-${row.index}` : undefined}
                  role="option"
                  aria-selected={isSelected}
                  onClick={() => row && selectPosition(item.index, row.index)}
                  style={{
                    position: "absolute",
                    top: 0,
                    left: 0,
                    right: 0,
                    transform: `translateY(${item.start}px)`,
                    height: ROW_HEIGHT,
                  }}
                  className={`cursor-pointer overflow-hidden border-b px-3 py-1.5 text-xs ${isSelected ? "bg-blue-50" : "hover:bg-slate-50"}`}
                >
                  {row ? (
                    <>
                      <div className="flex items-center gap-2 font-medium">
                        Step {row.index + 1} <StepKindBadge kind={row.kind} />
                      </div>
                      <div className="truncate font-mono text-slate-600">{row.summary || "(no action)"}</div>
                    </>
                  ) : (
                    <div className="text-slate-400">Loading…</div>
                  )}
                </div>
              );
            })}
          </div>
          {!count && (
            <p className="p-3 text-sm text-slate-600">
              {kind
                ? `No ${KIND_STYLE[kind].label.toLowerCase()} steps in this trajectory.`
                : "This trajectory has no steps."}
            </p>
          )}
        </div>
        {count && selectedIndex !== null ? (
          <StepDetail
            trajectoryId={trajectoryId}
            taskId={trajectory.data?.taskId ?? null}
            index={selectedIndex}
            search={search}
            lines={lines}
            onLines={setLines}
            onStep={(index) => void jumpToStep(index)}
          />
        ) : (
          <div />
        )}
      </div>
    </div>
  );
}

function GoToStep({ total, onGo }: { total: number; onGo(index: number): void }) {
  const [value, setValue] = useState("");
  return (
    <form
      className="flex items-center gap-1 text-xs"
      onSubmit={(event) => {
        event.preventDefault();
        const number = Number(value);
        if (Number.isInteger(number) && number >= 1 && number <= total) onGo(number - 1);
      }}
    >
      <label htmlFor="go-to-step">Go to step</label>
      <input
        id="go-to-step"
        type="number"
        min={1}
        max={total}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        className="w-24 rounded border px-1 py-0.5"
      />
      <button type="submit" className="rounded border px-2 py-0.5">
        Go
      </button>
    </form>
  );
}
