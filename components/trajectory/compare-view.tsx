"use client";
import { Link } from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef } from "react";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { SERVER_RECT } from "@/components/ui/use-infinite-rows";
import { Badge } from "@/components/ui/badge";
import type { TrajectoryComparison } from "@/lib/trajectories/compare";
import { StepKindBadge } from "./step-kind-badge";
import { candidateLabel, ComparePicker } from "./compare-picker";

const ROW_HEIGHT = 44;

type Side = TrajectoryComparison["a"];

function SideHeader({ t, label, differs }: { t: Side; label: string; differs: TrajectoryComparison["differs"] }) {
  const diagnosis = t.diagnosis as { rootCause?: string; text?: string } | null;
  return (
    <div className="rounded border bg-white p-3 text-sm">
      <h2 className="font-semibold">
        {label}:{" "}
        <Link className="font-mono text-blue-700 underline" href={`/trajectories/${t.id}`}>
          {t.externalId}
        </Link>
      </h2>
      <p className="text-slate-700">
        Task:{" "}
        {t.task && t.taskId ? (
          <Link className="font-mono text-blue-700 underline" href={`/tasks/${t.taskId}`}>
            {t.task.instanceId}
          </Link>
        ) : (
          "none"
        )}
      </p>
      <p className="text-slate-700">
        {t.role.toLowerCase()} · {t.model ?? "unknown model"} · {t.stepCount} steps
        {t.candidatePatch ? ` · on ${t.candidatePatch.generator}'s patch` : ""}
      </p>
      {t.decision && (
        <p className={differs.decision ? "mt-1 rounded bg-red-50 px-1" : "mt-1"} data-testid={`decision-${label}`}>
          Decision <Badge>{t.decision}</Badge>
          {t.confidence != null && ` at ${t.confidence.toFixed(2)}`}
          {differs.decision && <span className="ml-2 text-xs text-red-800">differs</span>}
        </p>
      )}
      {diagnosis && (diagnosis.rootCause || diagnosis.text) && (
        <p className={`mt-1 ${differs.diagnosis ? "rounded bg-amber-50 px-1" : ""}`}>
          Diagnosis: {diagnosis.rootCause ?? diagnosis.text}
        </p>
      )}
    </div>
  );
}

function Cell({ row, trajectoryId }: { row: TrajectoryComparison["rows"][number]["a"]; trajectoryId: string }) {
  if (!row) return <div className="px-2 text-xs italic text-slate-600">(no step here)</div>;
  return (
    <Link
      href={`/trajectories/${trajectoryId}?step=${row.index + 1}`}
      className="block min-w-0 px-2 text-xs hover:bg-slate-50"
    >
      <span className="flex items-center gap-1 font-medium">
        Step {row.index + 1} <StepKindBadge kind={row.kind} />
      </span>
      <span className="block truncate font-mono text-slate-600">{row.summary || "(no action)"}</span>
    </Link>
  );
}

/** Two trajectories in one scroll: each row pairs the steps the alignment matched, so both sides move together. */
export function CompareView({ a, b }: { a: string; b: string }) {
  const comparison = useQuery({
    queryKey: queryKeys.trajectoryCompare(a, b),
    queryFn: () => apiFetch<TrajectoryComparison>(`/api/v1/trajectories/compare?${new URLSearchParams({ a, b })}`),
    enabled: !!a && !!b,
  });
  const scroller = useRef<HTMLDivElement>(null);
  const rows = comparison.data?.rows ?? [];
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    initialRect: SERVER_RECT,
  });
  const heading = <h1 className="text-xl font-semibold">Compare trajectories</h1>;
  const picked = (id: string, side?: Side) =>
    id ? { id, label: side ? candidateLabel({ ...side, instanceId: side.task?.instanceId ?? null }) : id } : null;
  const picker = (
    <ComparePicker key={`${a}|${b}`} a={picked(a, comparison.data?.a)} b={picked(b, comparison.data?.b)} />
  );
  if (!a || !b)
    return (
      <div className="space-y-3">
        {heading}
        {picker}
        <p className="text-sm text-slate-700">
          Pick any two trajectories: B lists A&apos;s task&apos;s other trajectories first.
        </p>
      </div>
    );
  if (comparison.error)
    return (
      <div className="space-y-3">
        {heading}
        {picker}
        <p role="alert">Could not compare: {comparison.error.message}</p>
      </div>
    );
  if (!comparison.data) return <p>Aligning the two trajectories…</p>;
  const data = comparison.data;
  return (
    <div className="space-y-3">
      {heading}
      {picker}
      {!data.sameTask && (
        <p
          className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-sm text-slate-900"
          data-testid="different-tasks"
          role="note"
        >
          These trajectories are on different tasks ({data.a.task?.instanceId ?? "no task"} and{" "}
          {data.b.task?.instanceId ?? "no task"}): the rows align what each agent did, not the same code.
        </p>
      )}
      <div className="grid grid-cols-2 gap-3">
        <SideHeader t={data.a} label="A" differs={data.differs} />
        <SideHeader t={data.b} label="B" differs={data.differs} />
      </div>
      <p className="text-sm text-slate-700" data-testid="alignment-summary">
        {data.matched} of {rows.length} aligned rows did the same act; rows in amber differ, and a gap is a step only
        one side took.
        {data.truncated && " Only the first 2,000 steps of each side are aligned."}
      </p>
      <div
        ref={scroller}
        className="h-[65vh] overflow-auto rounded border bg-white"
        role="table"
        aria-label="Aligned steps"
      >
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            return (
              <div
                key={item.key}
                role="row"
                data-same={row.same}
                style={{
                  position: "absolute",
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                }}
                className={`grid grid-cols-2 border-b py-1 ${row.same ? "" : "bg-amber-50"}`}
              >
                <div role="cell" className="min-w-0 border-r">
                  <Cell row={row.a} trajectoryId={data.a.id} />
                </div>
                <div role="cell" className="min-w-0">
                  <Cell row={row.b} trajectoryId={data.b.id} />
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
