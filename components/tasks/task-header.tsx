"use client";
import { Link } from "@/components/ui/link";
import { Badge, humanize } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { HiddenVerdict } from "@/components/validation/validation-panel";
import { Term } from "./glossary";
import type { TaskDetailJson } from "./use-task";

/** decided: the queue keeps the last decision at hand to undo, since deciding moves on at once */
export type QueueControls = {
  next: () => void;
  previous: () => void;
  hasPrevious: boolean;
  decided?: (decision: { id: string; verdict: string; taskId: string; instanceId: string }) => void;
};

function ReviewLease({ task }: { task: TaskDetailJson }) {
  if (!task.leasedBy || !task.leaseExpiresAt || new Date(task.leaseExpiresAt) <= new Date()) return null;
  return (
    <>
      {" "}
      · in review by {task.leasedBy.name ?? task.leasedBy.email} until{" "}
      {new Date(task.leaseExpiresAt).toLocaleTimeString()}
    </>
  );
}

/** Which task this is and where it stands: the two verdicts (people's and automation's), each named and explained. */
export function TaskHeader({
  task,
  queue,
  onHelp,
}: {
  task: TaskDetailJson;
  queue?: QueueControls;
  onHelp: () => void;
}) {
  const env = task.environment;
  return (
    <header className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="font-mono text-xl font-semibold" data-testid="instance-id">
          {task.instanceId}
        </h1>
        <span className="flex items-center gap-1 text-sm text-slate-700">
          <span>
            <Term term="curationStatus" />:
          </span>
          <Badge>{task.curationStatus}</Badge>
        </span>
        {task.verdictHidden ? (
          <HiddenVerdict reason={task.verdictHidden} />
        ) : (
          <span className="flex items-center gap-1 text-sm text-slate-700">
            <span>
              <Term term="automatedVerdict" />:
            </span>
            <Badge>{task.verdictOverride ?? task.automatedVerdict}</Badge>
            {task.verdictOverride && (
              <span title={task.overrideJustification ?? ""}>
                {" "}
                (a curator&apos;s override of {task.automatedVerdict})
              </span>
            )}
          </span>
        )}
        {task.failureClass && <Badge tone="red">{humanize(task.failureClass)}</Badge>}
        <Button size="sm" variant="ghost" className="ml-auto" onClick={onHelp} aria-label="Keyboard shortcuts">
          <kbd>?</kbd> keys
        </Button>
      </div>
      <p className="text-sm text-slate-700">
        <Link className="font-mono text-blue-800 underline" href={`/environments/${env.id}`}>
          {env.key}
        </Link>{" "}
        · {env.repository.owner}/{env.repository.name} · {humanize(task.source)} · {humanize(task.kind)} · difficulty{" "}
        {humanize(task.difficulty)} · <Term term="approvals" /> {task.verdictHidden ? "hidden" : task.approvals.count}{" "}
        of {task.approvals.required} · <Term term="version" /> <span data-testid="task-version">{task.version}</span>
        {task.assignee && <> · assigned to {task.assignee.name ?? task.assignee.email}</>}
        <ReviewLease task={task} />
      </p>
      {task.labels.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label="Labels">
          {task.labels.map((l) => (
            <li key={l} className="rounded bg-slate-200 px-1.5 text-xs">
              {l}
            </li>
          ))}
        </ul>
      )}
      {queue && (
        <div className="flex gap-2">
          <Button size="sm" onClick={queue.previous} disabled={!queue.hasPrevious}>
            ← Previous <kbd className="text-xs">k</kbd>
          </Button>
          <Button size="sm" onClick={queue.next}>
            Next <kbd className="text-xs">j</kbd> →
          </Button>
        </div>
      )}
    </header>
  );
}
