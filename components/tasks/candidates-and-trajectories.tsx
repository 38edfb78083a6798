"use client";
import { Link } from "@/components/ui/link";
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TaskDetail } from "@/lib/curation/get-task-detail";
import { Badge, humanize } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PatchViewer } from "@/components/diff/patch-viewer";
import type { Jsonified } from "@/components/ui/jsonified";
import { apiFetch } from "@/components/ui/api";
import { ErrorText } from "@/components/ui/error-text";
import { useCan } from "@/components/auth/actor-context";
import { validationsKey } from "@/components/validation/validation-panel";

/** Runs an agent's patch with the task's tests to record its ground truth (resolved or not). */
function RunCandidateButton({ taskId, candidateId }: { taskId: string; candidateId: string }) {
  const client = useQueryClient();
  const run = useMutation({
    mutationFn: () => apiFetch("/api/v1/runs", { method: "POST", json: { taskId, candidatePatchId: candidateId } }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: validationsKey(taskId) });
      // by prefix: the page may be addressed by instance id, and its task is keyed by that
      void client.invalidateQueries({ queryKey: ["task"] });
    },
  });
  return (
    <>
      <Button size="sm" disabled={run.isPending || run.isSuccess} onClick={() => run.mutate()}>
        {run.isSuccess ? "Queued — see Validation" : run.isPending ? "Queuing…" : "Run with the tests"}
      </Button>
      {run.error && <ErrorText error={run.error} prefix="Could not queue the run" />}
    </>
  );
}

type Detail = Jsonified<TaskDetail>;

/** Agents' patches for this task (with their executed ground truth) and the trajectories that produced or reviewed them. */
export function CandidatesAndTrajectories({
  task,
  layout,
  onLayoutChange,
}: {
  task: Detail;
  layout: "side-by-side" | "inline";
  onLayoutChange: (l: "side-by-side" | "inline") => void;
}) {
  const [open, setOpen] = useState<string | null>(null);
  const canRun = useCan("jobs:run");
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <div>
        <h3 className="mb-2 text-sm font-semibold">Candidate patches ({task.candidatePatches.length})</h3>
        {task.candidatePatches.length === 0 && <p className="text-sm text-slate-600">No agent patch is attached.</p>}
        <ul className="flex flex-col gap-2">
          {task.candidatePatches.map((c) => (
            <li key={c.id} className="rounded border border-slate-200 bg-white p-2 text-sm">
              <div className="flex items-center gap-2">
                <span className="font-mono">{c.generator}</span>
                <Badge tone={c.resolved === null ? "gray" : c.resolved ? "green" : "red"}>
                  {c.resolved === null ? "not run" : c.resolved ? "resolved" : "not resolved"}
                </Badge>
                {canRun && (
                  <span className="ml-auto">
                    <RunCandidateButton taskId={task.id} candidateId={c.id} />
                  </span>
                )}
                <Button
                  size="sm"
                  className={canRun ? "" : "ml-auto"}
                  aria-expanded={open === c.id}
                  onClick={() => setOpen(open === c.id ? null : c.id)}
                >
                  {open === c.id ? "Hide patch" : "Show patch"}
                </Button>
              </div>
              {open === c.id && (
                <div className="mt-2">
                  <PatchViewer
                    taskId={task.id}
                    patch={c.patch}
                    label={`Patch by ${c.generator}`}
                    layout={layout}
                    onLayoutChange={onLayoutChange}
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h3 className="mb-2 text-sm font-semibold">Trajectories ({task.trajectories.length})</h3>
        {task.trajectories.length === 0 && <p className="text-sm text-slate-600">No trajectory is attached.</p>}
        <ul className="flex flex-col gap-1 text-sm">
          {task.trajectories.map((t) => (
            <li
              key={t.id}
              className="flex flex-wrap items-center gap-2 rounded border border-slate-200 bg-white px-2 py-1"
            >
              <Link href={`/trajectories/${t.id}`} className="text-blue-800 underline">
                {humanize(t.role)} · {t.model ?? humanize(t.format)}
              </Link>
              <span className="text-xs text-slate-600">
                {t.stepCount === 0 ? "no steps stored" : `${t.stepCount} ${t.stepCount === 1 ? "step" : "steps"}`}
              </span>
              {t.decision && <Badge>{t.decision}</Badge>}
              {t.confidence !== null && (
                <span className="text-xs text-slate-600">confidence {Math.round(t.confidence * 100)}%</span>
              )}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
