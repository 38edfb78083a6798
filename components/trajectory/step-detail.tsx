"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import type { FullStep } from "@/lib/trajectories/get-trajectory";
import { highlightPattern, splitMatches, type SearchTerms } from "@/lib/trajectories/highlight";
import { StepKindBadge } from "./step-kind-badge";
import dynamic from "next/dynamic";
import { EditsSoFar } from "./edits-so-far";
import { StepAnnotations } from "./step-annotations";
import { StepReplay } from "./step-replay";
import { replayActionOf } from "@/lib/trajectories/replay/replay-actions";

// Monaco is loaded when a step first shows an edit, not with the page: the first step appears sooner
const EditDiff = dynamic(() => import("./step-edit-view").then((m) => m.EditDiff), {
  ssr: false,
  loading: () => <p className="text-xs text-slate-500">Loading the diff viewer…</p>,
});

/** Lines drawn at once; a longer observation offers the rest on request. */
const LINES_SHOWN = 3_000;

function Marked({ text, pattern }: { text: string; pattern: RegExp | null }) {
  return (
    <>
      {splitMatches(text, pattern).map((piece, i) =>
        piece.match ? (
          <mark key={i} className="rounded-sm bg-yellow-200 text-inherit" data-search-hit="">
            {piece.text}
          </mark>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}

function Section({ title, text, pattern }: { title: string; text: string | null; pattern: RegExp | null }) {
  if (!text) return null;
  return (
    <section className="mb-4">
      <h3 className="mb-1 text-sm font-semibold text-slate-700">{title}</h3>
      <pre className="max-h-[30vh] overflow-auto whitespace-pre-wrap rounded border bg-slate-50 p-3 text-xs">
        <Marked text={text} pattern={pattern} />
      </pre>
    </section>
  );
}

/** The observation with line numbers: a click picks a line, a shift-click a range; the range goes into the step's link. */
function Observation({
  text,
  pattern,
  lines,
  onLines,
}: {
  text: string | null;
  pattern: RegExp | null;
  lines: [number, number] | null;
  onLines(range: [number, number] | null): void;
}) {
  const all = useMemo(() => (text ?? "").split("\n"), [text]);
  const firstPicked = useRef<HTMLDivElement>(null);
  const shown = lines && lines[1] > LINES_SHOWN ? all : all.slice(0, LINES_SHOWN);
  useEffect(() => {
    firstPicked.current?.scrollIntoView({ block: "center" });
  }, [lines, text]);
  if (!text) return null;
  const pick = (line: number, extend: boolean) =>
    onLines(extend && lines ? [Math.min(lines[0], line), Math.max(lines[1], line)] : [line, line]);
  return (
    <section className="mb-4">
      <h3 className="mb-1 text-sm font-semibold text-slate-700">
        Observation
        {lines && (
          <span className="ml-2 font-normal text-slate-600">
            lines {lines[0]}–{lines[1]} picked{" "}
            <button type="button" className="text-blue-700 underline" onClick={() => onLines(null)}>
              clear
            </button>
          </span>
        )}
      </h3>
      <div
        className="max-h-[40vh] overflow-auto rounded border bg-slate-50 py-2 font-mono text-xs"
        data-testid="observation"
      >
        {shown.map((line, i) => {
          const number = i + 1;
          const picked = !!lines && number >= lines[0] && number <= lines[1];
          return (
            <div
              key={i}
              ref={picked && number === lines![0] ? firstPicked : undefined}
              className={`flex ${picked ? "bg-yellow-100" : ""}`}
              data-line={number}
              aria-current={picked ? "true" : undefined}
            >
              <button
                type="button"
                className="w-12 shrink-0 select-none pr-2 text-right text-slate-400 hover:text-blue-700"
                aria-label={`Line ${number}: link to it (shift-click for a range)`}
                onClick={(event) => pick(number, event.shiftKey)}
              >
                {number}
              </button>
              <span className="whitespace-pre-wrap break-all pr-3">
                <Marked text={line} pattern={pattern} />
              </span>
            </div>
          );
        })}
        {shown.length < all.length && (
          <p className="px-3 pt-2 text-slate-600">
            … {(all.length - shown.length).toLocaleString()} more lines (open the step&apos;s link with a line range to
            see them)
          </p>
        )}
      </div>
    </section>
  );
}

export const stepQuery = (trajectoryId: string, index: number) => ({
  queryKey: queryKeys.trajectoryStep(trajectoryId, index),
  queryFn: () => apiFetch<FullStep>(`/api/v1/trajectories/${trajectoryId}/steps/${index}`),
  gcTime: 30_000,
});

/** One step in full: its kind, thought, action and observation, with the search terms marked. */
export function StepDetail({
  trajectoryId,
  taskId,
  index,
  search,
  lines,
  onLines,
  onStep,
}: {
  trajectoryId: string;
  taskId: string | null;
  index: number;
  search: SearchTerms | null;
  lines: [number, number] | null;
  onLines(range: [number, number] | null): void;
  onStep(index: number): void;
}) {
  const step = useQuery(stepQuery(trajectoryId, index));
  const pattern = useMemo(() => highlightPattern(search), [search]);
  return (
    <div className="h-[70vh] overflow-auto rounded border bg-white p-4" aria-live="polite" data-testid="step-detail">
      <h2 className="mb-3 flex items-center gap-2 font-semibold">
        Step {index + 1}
        {step.data && <StepKindBadge kind={step.data.kind} />}
        {step.data && (step.data.tokensIn != null || step.data.tokensOut != null) && (
          <span className="text-sm font-normal text-slate-500">
            {step.data.tokensIn ?? "—"} tokens in / {step.data.tokensOut ?? "—"} out
          </span>
        )}
      </h2>
      {step.error && (
        <p role="alert">
          Could not load step {index + 1}: {step.error.message}
        </p>
      )}
      {!step.data && !step.error && <p className="text-sm text-slate-500">Loading step {index + 1}…</p>}
      {step.data && (
        <>
          <Section title="Thought" text={step.data.thought} pattern={pattern} />
          <Section title="Action" text={step.data.action} pattern={pattern} />
          {step.data.edit && (
            <EditDiff edit={step.data.edit} trajectoryId={trajectoryId} index={index} taskId={taskId} />
          )}
          <EditsSoFar key={index} trajectoryId={trajectoryId} upTo={index} onStep={onStep} />
          <Observation text={step.data.observation} pattern={pattern} lines={lines} onLines={onLines} />
          {replayActionOf(step.data).how !== "skip" && (
            <StepReplay trajectoryId={trajectoryId} index={index} onStep={onStep} />
          )}
          <StepAnnotations trajectoryId={trajectoryId} index={index} />
        </>
      )}
    </div>
  );
}
