"use client";
import type { TaskValidations } from "@/lib/runs/list-task-validations";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import type { Jsonified } from "@/components/ui/jsonified";
import { useCan } from "@/components/auth/actor-context";
import { useTaskValidations } from "@/components/validation/validation-panel";
import { useRetryRun } from "./use-task";

type Groups = Jsonified<TaskValidations>["items"];

/** Where a task stands on the way from evidence to a decision. */
export type TaskStage =
  | { kind: "unvalidated" }
  | { kind: "validating" }
  | { kind: "failed"; runId: string; reason: string | null }
  | { kind: "validated"; verdict: string };

/** The stage from the task's validation groups (controls only: an agent's patch run judges the agent, not the task). */
export function taskStage(groups: Groups, verdict: string): TaskStage {
  if (groups.some((g) => g.active)) return { kind: "validating" };
  const latest = groups.find((g) => !g.candidate);
  const failed = latest?.runs.find((r) => r.status === "FAILED" || r.status === "CANCELLED");
  if (failed && latest) return { kind: "failed", runId: latest.runs[0].id, reason: failed.errorMessage };
  if (verdict === "PENDING") return { kind: "unvalidated" };
  return { kind: "validated", verdict };
}

type Props = {
  taskId: string;
  verdict: string;
  onValidate: () => void;
  validating: boolean;
  validateError: unknown;
  onDecide: () => void;
};

/**
 * The one thing to do next, as the page's only primary button: Validate a task nobody has
 * validated, Retry one whose validation failed, Decide one validation has judged.
 */
export function NextStep({ taskId, verdict, onValidate, validating, validateError, onDecide }: Props) {
  const canRun = useCan("jobs:run");
  const canDecide = useCan("tasks:decide");
  const { data } = useTaskValidations(taskId);
  const retry = useRetryRun(taskId);
  if (!data) return null;
  const stage = taskStage(data.items, verdict);
  const box = "flex flex-wrap items-center gap-3 rounded border p-3 text-sm";
  return (
    <div data-testid="next-step" data-stage={stage.kind}>
      {stage.kind === "unvalidated" && (
        <div className={`${box} border-amber-300 bg-amber-50`}>
          <p className="flex-1">
            <strong>Not validated yet.</strong> Nobody has run this task&apos;s tests in its environment, so nothing
            shows yet that the tests fail without the fix and pass with it.
          </p>
          {canRun && (
            <Button variant="primary" onClick={onValidate} disabled={validating} data-testid="next-step-action">
              {validating ? "Queueing…" : "Validate"}
            </Button>
          )}
        </div>
      )}
      {stage.kind === "validating" && (
        <div className={`${box} border-blue-300 bg-blue-50`} role="status">
          <p className="flex-1">
            <strong>Validating.</strong> The controls are running; their live log is under{" "}
            <a href="#validation-section">Validation</a>.
          </p>
        </div>
      )}
      {stage.kind === "failed" && (
        <div className={`${box} border-red-300 bg-red-50`}>
          <p className="flex-1">
            <strong>The last validation did not finish.</strong>{" "}
            {stage.reason ?? "A run failed or was cancelled before it reached a verdict."}
          </p>
          {canRun && (
            <Button
              variant="primary"
              onClick={() => retry.mutate(stage.runId)}
              disabled={retry.isPending}
              data-testid="next-step-action"
            >
              {retry.isPending ? "Queueing…" : "Retry"}
            </Button>
          )}
        </div>
      )}
      {stage.kind === "validated" && (
        <div className={`${box} border-slate-300 bg-white`}>
          <p className="flex-1">
            <strong>Validated:</strong> <Badge>{stage.verdict}</Badge> Read the per-test results under Validation, then
            decide.
          </p>
          {canDecide && (
            <Button variant="primary" onClick={onDecide} data-testid="next-step-action">
              Decide
            </Button>
          )}
        </div>
      )}
      <ErrorText error={validateError ?? retry.error} />
    </div>
  );
}
