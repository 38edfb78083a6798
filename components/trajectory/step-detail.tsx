"use client";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api";
import type { TrajectoryStepPreview } from "@/lib/trajectories/get-trajectory";

type FullStep = { thought: string | null; action: string | null; observation: string | null };

function Section({ title, text, truncated, length }: { title: string; text: string | null; truncated?: boolean; length?: number }) {
  if (!text) return null;
  return (
    <section className="mb-4">
      <h3 className="mb-1 text-sm font-semibold text-slate-700">
        {title}
        {truncated && <span className="ml-2 font-normal text-slate-500">(first {text.length.toLocaleString()} of {length?.toLocaleString()} characters; loading the rest…)</span>}
      </h3>
      <pre className="max-h-[40vh] overflow-auto whitespace-pre-wrap rounded border bg-slate-50 p-3 text-xs">{text}</pre>
    </section>
  );
}

/** Shows a step's preview at once and swaps in the full texts when a part was cut. */
export function StepDetail({ trajectoryId, step }: { trajectoryId: string; step: TrajectoryStepPreview }) {
  const cut = step.thought.truncated || step.action.truncated || step.observation.truncated;
  const full = useQuery({
    queryKey: ["trajectory-step", trajectoryId, step.index],
    queryFn: () => apiFetch<FullStep>(`/api/v1/trajectories/${trajectoryId}/steps/${step.index}`),
    enabled: cut,
  });
  const pick = (key: "thought" | "action" | "observation") => (full.data ? { text: full.data[key] } : step[key]);
  return (
    <div className="h-[70vh] overflow-auto rounded border bg-white p-4" aria-live="polite">
      <h2 className="mb-3 font-semibold">
        Step {step.index + 1}
        {(step.tokensIn != null || step.tokensOut != null) && <span className="ml-2 text-sm font-normal text-slate-500">{step.tokensIn ?? "—"} tokens in / {step.tokensOut ?? "—"} out</span>}
      </h2>
      <Section title="Thought" {...pick("thought")} />
      <Section title="Action" {...pick("action")} />
      <Section title="Observation" {...pick("observation")} />
    </div>
  );
}
