"use client";
import { forwardRef } from "react";
import { useMutation } from "@tanstack/react-query";
import { DECISION_REASON_LABELS, UNDO_WINDOW_MS } from "@/lib/curation/decision-rules";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { Badge } from "@/components/ui/badge";
import { TimeAgo } from "@/components/ui/time-ago";
import { useActor, useCan } from "@/components/auth/actor-context";
import { DecisionForm, type DecisionFormHandle, type RecordedDecision } from "./decision-form";
import type { TaskDetailJson } from "./use-task";

type Decision = TaskDetailJson["decisions"][number];

/** The signed-in curator's latest decision while it can still be undone (the list is newest first). */
function undoable(decisions: Decision[], actorId: string): Decision | undefined {
  const mine = decisions.find((d) => d.curatorId === actorId);
  return mine && Date.now() - new Date(mine.createdAt).getTime() < UNDO_WINDOW_MS ? mine : undefined;
}

/** Takes back the curator's own latest decision; the audit trail records the undo. */
export function UndoDecision({
  decision,
  onUndone,
}: {
  decision: { id: string; verdict: string };
  onUndone: () => void;
}) {
  const undo = useMutation({
    mutationFn: () => apiFetch(`/api/v1/decisions/${decision.id}/undo`, { method: "POST" }),
    onSuccess: onUndone,
  });
  return (
    <span className="inline-flex items-center gap-2">
      <Button size="sm" onClick={() => undo.mutate()} disabled={undo.isPending} data-testid="undo-decision">
        {undo.isPending ? "Undoing…" : `Undo my ${decision.verdict.toLowerCase().replace("_", " ")}`}
      </Button>
      <ErrorText error={undo.error} />
    </span>
  );
}

function PastDecisions({ decisions, onUndone }: { decisions: Decision[]; onUndone: () => void }) {
  const actor = useActor();
  const mine = useCan("tasks:decide") ? undoable(decisions, actor.id) : undefined;
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
            {d.reasons.length > 0 && (
              <p className="mt-1 text-xs">{d.reasons.map((r) => DECISION_REASON_LABELS[r]).join(", ")}</p>
            )}
            {d.comment && <p className="mt-1 text-xs whitespace-pre-wrap text-slate-700">{d.comment}</p>}
            {d.overridesAutomated && (
              <p className="mt-1 text-xs text-amber-800">Overrides automation: {d.justification}</p>
            )}
            {d.staleReason && (
              <p className="mt-1 text-xs text-amber-800" data-testid="stale-decision">
                Stale, no longer counts: {d.staleReason}. The task is back in the review queue.
              </p>
            )}
            {d.id === mine?.id && (
              <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-700">
                <UndoDecision decision={d} onUndone={onUndone} />
                possible for {UNDO_WINDOW_MS / 60_000} minutes after deciding; the history keeps a record of it
              </p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

type Props = { task: TaskDetailJson; onDecided: (decision: RecordedDecision) => void; onStale: () => void };

/** The decision, last on the page: the form (for curators) beside what others decided. */
export const DecisionSection = forwardRef<DecisionFormHandle, Props>(function DecisionSection(
  { task, onDecided, onStale },
  ref,
) {
  const canDecide = useCan("tasks:decide");
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {canDecide && (
        <DecisionForm
          ref={ref}
          taskId={task.id}
          version={task.version}
          automatedVerdict={task.verdictOverride ?? task.automatedVerdict}
          onDecided={onDecided}
          onStale={onStale}
        />
      )}
      <PastDecisions decisions={task.decisions} onUndone={onStale} />
    </div>
  );
});
