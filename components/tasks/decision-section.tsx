"use client";
import { forwardRef } from "react";
import { DECISION_REASON_LABELS } from "@/lib/curation/decision-rules";
import { Badge } from "@/components/ui/badge";
import { TimeAgo } from "@/components/ui/time-ago";
import { useCan } from "@/components/auth/actor-context";
import { DecisionForm, type DecisionFormHandle } from "./decision-form";
import type { TaskDetailJson } from "./use-task";

function PastDecisions({ decisions }: { decisions: TaskDetailJson["decisions"] }) {
  return (
    <div className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold">Decisions so far ({decisions.length})</h3>
      {decisions.length === 0 && <p className="text-sm text-slate-700">No curator has decided yet.</p>}
      <ul className="flex flex-col gap-2 text-sm" data-testid="decisions">
        {decisions.map((d) => (
          <li key={d.id} className="rounded border border-slate-200 bg-white p-2">
            <div className="flex items-center gap-2">
              <Badge>{d.verdict}</Badge>
              <span className="font-medium">{d.curator.name ?? d.curator.email}</span>
              <span className="ml-auto text-xs text-slate-600">
                <TimeAgo value={d.createdAt} />
              </span>
            </div>
            {d.reasons.length > 0 && <p className="mt-1 text-xs">{d.reasons.map((r) => DECISION_REASON_LABELS[r]).join(", ")}</p>}
            {d.comment && <p className="mt-1 text-xs whitespace-pre-wrap text-slate-700">{d.comment}</p>}
            {d.overridesAutomated && <p className="mt-1 text-xs text-amber-800">Overrides automation: {d.justification}</p>}
          </li>
        ))}
      </ul>
    </div>
  );
}

type Props = { task: TaskDetailJson; onDecided: () => void; onStale: () => void };

/** The decision, last on the page: the form (for curators) beside what others decided. */
export const DecisionSection = forwardRef<DecisionFormHandle, Props>(function DecisionSection({ task, onDecided, onStale }, ref) {
  const canDecide = useCan("tasks:decide");
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {canDecide && (
        <DecisionForm ref={ref} taskId={task.id} version={task.version} automatedVerdict={task.verdictOverride ?? task.automatedVerdict} onDecided={onDecided} onStale={onStale} />
      )}
      <PastDecisions decisions={task.decisions} />
    </div>
  );
});
