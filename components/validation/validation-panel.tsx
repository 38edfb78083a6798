"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useEffect, useRef, useState } from "react";
import { WAYS_FORWARD } from "@/lib/environments/ways-forward";
import type { TaskValidations } from "@/lib/runs/list-task-validations";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Badge, humanize } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { Field, inputClass } from "@/components/ui/field";
import { Tabs } from "@/components/ui/tabs";
import { TimeAgo } from "@/components/ui/time-ago";
import type { Jsonified } from "@/components/ui/jsonified";
import { useCan } from "@/components/auth/actor-context";
import { DockerBanner } from "@/components/jobs/docker-banner";
import { LiveLog } from "@/components/jobs/live-log";
import { PhaseProgress } from "@/components/jobs/phase-progress";
import { OverrideVerdictForm } from "./override-verdict-form";
import { RunCard, type RunView } from "./run-card";

type Validations = Jsonified<TaskValidations>;
type Group = Validations["items"][number];

export const validationsKey = queryKeys.taskValidations;

const IDLE_POLL_MS = 15_000;
/** every task page's task, by prefix: a page addressed by instance id keys its task by that, not by the id this panel holds */
const ANY_TASK = ["task"];

/**
 * A task's validation groups, polled while one runs, and now and then while none does: a run
 * queued elsewhere (a bulk validation, another curator) then shows up, and its end updates the
 * page like a run started here. The panel and the task page's next step share it.
 */
export function useTaskValidations(taskId: string) {
  return useQuery({
    queryKey: validationsKey(taskId),
    queryFn: () => apiFetch<Validations>(`/api/v1/runs?taskId=${encodeURIComponent(taskId)}`),
    refetchInterval: (query) => (query.state.data?.items.some((g) => g.active) ? 1_500 : IDLE_POLL_MS),
  });
}

function groupOutcome(group: Group): string {
  if (group.active) return "running";
  if (group.runs.some((run) => run.status === "CANCELLED")) return "cancelled";
  if (group.runs.some((run) => run.status === "FAILED")) return "failed";
  return "finished";
}

function WatchedGroup({ group, onEnd, onClose }: { group: Group; onEnd: () => void; onClose: () => void }) {
  const [selected, setSelected] = useState(group.runs[0]?.id);
  const run = group.runs.find((r) => r.id === selected) ?? group.runs[0];
  return (
    <div
      className="flex flex-col gap-2 rounded border border-blue-200 bg-blue-50/40 p-3"
      data-testid="active-validation"
    >
      {!group.active && (
        <div className="flex items-center gap-2 text-sm">
          <span>This validation {groupOutcome(group)}; its results are below.</span>
          <Button size="sm" variant="ghost" className="ml-auto" onClick={onClose}>
            Close the live view
          </Button>
        </div>
      )}
      <ul className="flex flex-col gap-1">
        {group.runs.map((r) => (
          <li key={r.id} className="flex flex-wrap items-center gap-2 text-sm">
            <span className="w-40 font-medium">
              {humanize(r.kind)}
              {r.attempt > 0 ? ` #${r.attempt + 1}` : ""}
            </span>
            <PhaseProgress
              status={r.status}
              phase={r.phase}
              label={`Progress of the ${humanize(r.kind).toLowerCase()}`}
            />
            {r.cancelRequested && r.status === "RUNNING" && <span className="text-xs text-amber-800">stopping…</span>}
          </li>
        ))}
      </ul>
      {group.runs.length > 1 && (
        <Tabs
          label="Live log of"
          value={run.id}
          onChange={setSelected}
          tabs={group.runs.map((r) => ({
            id: r.id,
            label: `${humanize(r.kind)}${r.attempt > 0 ? ` #${r.attempt + 1}` : ""}`,
          }))}
        />
      )}
      <LiveLog
        key={run.id}
        url={`/api/v1/runs/${run.id}/log`}
        label={`Live log: ${humanize(run.kind).toLowerCase()}`}
        onEnd={onEnd}
      />
    </div>
  );
}

function VerdictLine({ task }: { task: Validations["task"] }) {
  if ("verdictHidden" in task) return <HiddenVerdict reason={String(task.verdictHidden)} />;
  const shown = task.verdictOverride ?? task.automatedVerdict;
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="validation-verdict" role="status">
      <span className="text-slate-600">Verdict</span>
      <Badge>{shown}</Badge>
      {task.failureClass && <Badge tone="red">{humanize(task.failureClass)}</Badge>}
      {task.verdictOverride && (
        <span className="text-xs text-slate-600">
          (overridden by a curator; automation said {task.automatedVerdict})
        </span>
      )}
    </p>
  );
}

/** A task that cannot be validated yet: what is missing, in one sentence, and the ways forward, instead of a Validate that would fail. */
function NoEnvironmentYet({ environmentId, missing }: { environmentId: string; missing: string }) {
  return (
    <div
      className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      data-testid="no-environment"
    >
      <p>{missing}</p>
      <ul className="mt-1 flex flex-wrap gap-x-4">
        {WAYS_FORWARD.map((way) => (
          <li key={way.key}>
            <Link className="underline" href={`/environments/${environmentId}#source-${way.key}`}>
              {way.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Validation of one task: Validate / Re-validate / Cancel / Retry, phase progress and the
 * live log while it runs, the history of runs with per-test outcomes, and the verdict
 * override. Buttons show only for roles that may use them; the server checks again.
 */
export function ValidationPanel({ taskId }: { taskId: string }) {
  const client = useQueryClient();
  const canRun = useCan("jobs:run");
  const canDecide = useCan("tasks:decide");
  const [repeats, setRepeats] = useState(1);
  // the group whose live view is open: it stays open after it finishes, so its end can be read
  const [watchedId, setWatchedId] = useState<string | null>(null);
  const { data, error, isLoading } = useTaskValidations(taskId);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: validationsKey(taskId) });
    void client.invalidateQueries({ queryKey: ANY_TASK });
  };
  // the verdict is written when a group's last run ends: the task's header and history then change too
  const hasActive = !!data?.items.some((g) => g.active);
  const wasActive = useRef(false);
  useEffect(() => {
    if (wasActive.current && !hasActive) {
      for (const queryKey of [ANY_TASK, ["task-history"], ["tasks"]]) void client.invalidateQueries({ queryKey });
    }
    wasActive.current = hasActive;
  }, [hasActive, client]);
  const validate = useMutation({
    mutationFn: () => apiFetch("/api/v1/runs", { method: "POST", json: { taskId, repeats } }),
    onSettled: refresh,
  });
  const cancel = useMutation({
    mutationFn: (runId: string) => apiFetch(`/api/v1/runs/${runId}/cancel`, { method: "POST" }),
    onSettled: refresh,
  });
  const retry = useMutation({
    mutationFn: (runId: string) => apiFetch(`/api/v1/runs/${runId}/retry`, { method: "POST" }),
    onSettled: refresh,
  });

  if (isLoading) return <p className="text-sm">Loading validations…</p>;
  if (error || !data) return <ErrorText error={error} prefix="Could not load the validations" />;
  const controls = data.items.filter((g) => !g.candidate);
  const active = data.items.find((g) => g.active);
  const latest = controls[0];
  const retryable =
    latest && !latest.active && latest.runs.some((r) => r.status === "FAILED" || r.status === "CANCELLED");
  const revision = data.task.environment.currentRevision;
  const watched = active ?? data.items.find((g) => g.groupId === watchedId);
  if (active && active.groupId !== watchedId) setWatchedId(active.groupId);

  return (
    <div role="group" className="flex flex-col gap-3" aria-label="Validation" data-testid="validation-panel">
      <VerdictLine task={data.task} />
      {!data.task.readiness.ready && (
        <NoEnvironmentYet environmentId={data.task.environment.id} missing={data.task.readiness.missing} />
      )}
      {canRun && data.task.readiness.ready && (
        <div className="flex flex-wrap items-end gap-2">
          <Field label="Attempts per control">
            {(id) => (
              <input
                id={id}
                type="number"
                min={1}
                max={5}
                value={repeats}
                onChange={(e) => setRepeats(Math.min(5, Math.max(1, Number(e.target.value) || 1)))}
                className={`${inputClass} w-20`}
              />
            )}
          </Field>
          <Button
            onClick={() => validate.mutate()}
            disabled={!!active || validate.isPending || !revision}
            data-testid="validate-button"
          >
            {validate.isPending ? "Queueing…" : controls.length ? "Re-validate" : "Validate"}
          </Button>
          {active && (
            <Button variant="danger" onClick={() => cancel.mutate(active.runs[0].id)} disabled={cancel.isPending}>
              Cancel
            </Button>
          )}
          {retryable && (
            <Button onClick={() => retry.mutate(latest.runs[0].id)} disabled={retry.isPending}>
              Retry
            </Button>
          )}
          <span className="text-xs text-slate-600">
            {revision
              ? `on revision ${revision.number} of ${data.task.environment.key}`
              : "the environment has no recipe yet"}
            {repeats > 1 ? " · repeated attempts reveal flaky tests" : ""}
          </span>
        </div>
      )}
      <ErrorText error={validate.error ?? cancel.error ?? retry.error} />
      {active && <DockerBanner />}
      {watched && (
        <WatchedGroup key={watched.groupId} group={watched} onEnd={refresh} onClose={() => setWatchedId(null)} />
      )}

      <h3 className="text-sm font-semibold text-slate-900">Runs</h3>
      {data.items.length === 0 ? (
        <p className="text-sm text-slate-600">No validation has run for this task yet.</p>
      ) : (
        <ol className="flex flex-col gap-2" data-testid="validation-history">
          {data.items.map((group, index) => (
            <li key={group.groupId}>
              <details open={index === 0} className="rounded border border-slate-200 bg-slate-50 p-2">
                <summary className="cursor-pointer text-sm">
                  <span className="font-medium">{group.candidate ? "Candidate patch" : "Validation"}</span> · revision{" "}
                  {group.runs[0]?.revision.number} · {groupOutcome(group)} · <TimeAgo value={group.createdAt} />
                </summary>
                <ul className="mt-2 flex flex-col gap-2">
                  {group.runs.map((run: RunView) => (
                    <RunCard key={run.id} run={run} />
                  ))}
                </ul>
              </details>
            </li>
          ))}
        </ol>
      )}
      {/* only a verdict automation reached can be overridden */}
      {canDecide && (data.task.automatedVerdict !== "PENDING" || data.task.verdictOverride) && (
        <OverrideVerdictForm
          key={data.task.version}
          taskId={taskId}
          version={data.task.version}
          current={data.task}
          onSaved={refresh}
        />
      )}
    </div>
  );
}

/** Where the verdict would be while a blind campaign keeps it from this annotator (lib/auth/blind.ts). */
export function HiddenVerdict({ reason }: { reason: string }) {
  return (
    <p className="text-sm italic text-slate-600" data-testid="verdict-hidden" role="status">
      Verdict: {reason}
    </p>
  );
}
