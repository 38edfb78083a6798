"use client";
import dynamic from "next/dynamic";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { useCan } from "@/components/auth/actor-context";
import type { StepReplayView } from "@/lib/trajectories/replay/read-step-replays";
import type { ReplayedStep, StepOutcome } from "@/lib/trajectories/replay/replay-output";

const ReplayDiff = dynamic(() => import("./replay-diff").then((m) => m.ReplayDiff), {
  ssr: false,
  loading: () => <p className="text-xs text-slate-500">Loading the diff viewer…</p>,
});

type Replays = { items: StepReplayView[] };

const OUTCOME: Record<StepOutcome, { words: string; className: string }> = {
  same: { words: "same output", className: "bg-green-100 text-green-900" },
  different: { words: "output differs", className: "bg-red-100 text-red-900" },
  applied: { words: "edit applied", className: "bg-slate-100 text-slate-800" },
  failed: { words: "edit failed", className: "bg-red-100 text-red-900" },
  skipped: { words: "skipped", className: "bg-slate-100 text-slate-700" },
  "timed-out": { words: "stopped here", className: "bg-amber-100 text-amber-900" },
  "not-reached": { words: "not reached", className: "bg-slate-100 text-slate-700" },
};

const NORMALISATION =
  "Compared after removing ANSI colour codes, carriage returns, trailing spaces on each line, blank lines at either end, " +
  "and the agent harness's own lines (\"Your command ran successfully and did not produce any output.\", OpenHands' exit-code line); nothing else.";

/** "Step k of n" while the replay runs, from its server-sent progress events. */
function useReplayProgress(replay: StepReplayView | undefined, onEnd: () => void) {
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const live = replay && (replay.status === "QUEUED" || replay.status === "RUNNING") ? replay.id : null;
  useEffect(() => {
    if (!live) return;
    const source = new EventSource(`/api/v1/replays/${live}/events`);
    source.addEventListener("progress", (event) => {
      const { done, total } = JSON.parse((event as MessageEvent).data) as { done: number; total: number };
      setProgress({ done, total });
    });
    source.addEventListener("end", () => {
      source.close();
      onEnd();
    });
    return () => source.close();
  }, [live, onEnd]);
  return live ? (progress ?? { done: replay!.actionsDone, total: replay!.actionsTotal }) : null;
}

function OutcomeBadge({ outcome }: { outcome: StepOutcome }) {
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs ${OUTCOME[outcome].className}`}>{OUTCOME[outcome].words}</span>
  );
}

/** The replayed steps, each a button that shows its diff; the one a person picked starts selected. */
function ReplayResults({ replay, onStep }: { replay: StepReplayView; onStep(index: number): void }) {
  const results = (replay.results ?? []).filter((step) => step.how !== "skip");
  const [shown, setShown] = useState<number>(replay.stepIndex);
  const selected: ReplayedStep | undefined = results.find((step) => step.index === shown) ?? results.at(-1);
  const differing = results.filter((step) => step.outcome === "different" || step.outcome === "failed").length;
  return (
    <>
      <p className="mb-2 text-sm" data-testid="replay-summary">
        {differing
          ? `${differing} of ${results.length} replayed steps differ from the recording.`
          : `All ${results.length} replayed steps match the recording or were applied.`}
      </p>
      <ol className="mb-2 space-y-1 text-sm" aria-label="Replayed steps" data-testid="replay-steps">
        {results.map((step) => (
          <li key={step.index} className="flex items-center gap-2">
            <button
              type="button"
              className={`text-left font-mono text-xs underline ${step.index === selected?.index ? "font-bold" : ""}`}
              aria-pressed={step.index === selected?.index}
              onClick={() => setShown(step.index)}
            >
              Step {step.index + 1}: {step.act.split("\n")[0].slice(0, 80)}
            </button>
            <OutcomeBadge outcome={step.outcome} />
            {step.index !== replay.stepIndex && (
              <button
                type="button"
                className="text-xs text-blue-700 underline"
                onClick={() => onStep(step.index)}
                aria-label={`Go to step ${step.index + 1}`}
              >
                go to
              </button>
            )}
          </li>
        ))}
      </ol>
      {selected && (
        <div data-testid="replay-selected">
          <h4 className="mb-1 text-sm font-semibold text-slate-700">
            Step {selected.index + 1}: recorded (left) and replayed (right)
            {selected.exitCode !== null && (
              <span className="font-normal text-slate-600"> — exit code {selected.exitCode}</span>
            )}
          </h4>
          {selected.note && <p className="mb-1 text-xs text-slate-600">{selected.note}</p>}
          <ReplayDiff key={`${replay.id}-${selected.index}`} step={selected} />
        </div>
      )}
      <p className="mt-1 text-xs text-slate-600">{NORMALISATION}</p>
    </>
  );
}

/**
 * Replays the trajectory's commands and edits up to this step in a fresh container of its
 * task's environment (a curator starts it), shows "step k of n" live, then the recorded and
 * replayed output side by side with the steps whose output differs marked.
 */
export function StepReplay({
  trajectoryId,
  index,
  onStep,
}: {
  trajectoryId: string;
  index: number;
  onStep(index: number): void;
}) {
  const canRun = useCan("jobs:run");
  const client = useQueryClient();
  const replays = useQuery({
    queryKey: queryKeys.trajectoryReplays(trajectoryId),
    queryFn: () => apiFetch<Replays>(`/api/v1/trajectories/${trajectoryId}/replays`),
  });
  const replay = replays.data?.items.find((item) => item.stepIndex === index);
  const refresh = useCallback(
    () => void client.invalidateQueries({ queryKey: queryKeys.trajectoryReplays(trajectoryId) }),
    [client, trajectoryId],
  );
  const progress = useReplayProgress(replay, refresh);
  const start = useMutation({
    mutationFn: () =>
      apiFetch<{ id: string }>(`/api/v1/trajectories/${trajectoryId}/steps/${index}/replay`, { method: "POST" }),
    onSuccess: refresh,
  });
  return (
    <section className="mb-4" aria-label="Replay" data-testid="step-replay">
      <h3 className="mb-1 text-sm font-semibold text-slate-700">Replay in the environment</h3>
      <div className="mb-2 flex items-center gap-3">
        {canRun && (
          <button
            type="button"
            className="rounded bg-blue-700 px-3 py-1 text-sm text-white disabled:opacity-50"
            disabled={start.isPending || !!progress}
            onClick={() => start.mutate()}
          >
            {replay ? "Replay again" : "Replay up to this step"}
          </button>
        )}
        <span role="status" className="text-sm text-slate-700" data-testid="replay-progress">
          {progress ? `Replaying: step ${progress.done} of ${progress.total} done` : ""}
        </span>
      </div>
      {start.error && (
        <p role="alert" className="mb-2 text-sm text-red-800">
          {start.error.message}
        </p>
      )}
      {replays.error && (
        <p role="alert" className="text-sm text-red-800">
          Could not load the replays: {replays.error.message}
        </p>
      )}
      {!replay && !canRun && <p className="text-xs text-slate-500">Not replayed yet; a curator can replay it.</p>}
      {replay?.errorMessage && (
        <p className="mb-2 text-sm text-amber-900" data-testid="replay-error">
          {replay.errorMessage}
        </p>
      )}
      {replay?.results && <ReplayResults key={replay.id} replay={replay} onStep={onStep} />}
    </section>
  );
}
