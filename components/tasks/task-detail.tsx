"use client";
import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import type { TaskDetail as TaskDetailData } from "@/lib/tasks/get-task";
import { DECISION_REASON_LABELS } from "@/lib/curation/decision-rules";
import { apiFetch } from "@/components/ui/api";
import { Badge, humanize } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { Tabs } from "@/components/ui/tabs";
import { TimeAgo } from "@/components/ui/time-ago";
import type { Jsonified } from "@/components/ui/jsonified";
import { useCan } from "@/components/auth/actor-context";
import { Markdown } from "@/components/markdown/markdown";
import { PatchViewer } from "@/components/diff/patch-viewer";
import { RecipeEditor, type RecipeEditorHandle } from "@/components/environments/recipe-editor";
import { DecisionForm, type DecisionFormHandle } from "./decision-form";
import { TaskHistory } from "./task-history";
import { HiddenVerdict, ValidationPanel, validationsKey } from "@/components/validation/validation-panel";
import { EnvironmentBuildPanel } from "@/components/validation/environment-build-panel";
import { CandidatesAndTrajectories } from "./candidates-and-trajectories";
import { TaskFieldsEditor } from "./task-fields-editor";
import { useShortcuts, type Shortcut } from "./use-shortcuts";
import { ShortcutHelp } from "./shortcut-help";

/** verdictHidden: a blind campaign keeps the verdict from this annotator until they submit (lib/campaigns/blind.ts) */
export type TaskDetailJson = Jsonified<TaskDetailData> & { verdictHidden?: string };

export function useTask(taskId: string) {
  return useQuery({ queryKey: ["task", taskId], queryFn: () => apiFetch<TaskDetailJson>(`/api/v1/tasks/${taskId}`) });
}

type QueueControls = { next: () => void; previous: () => void; hasPrevious: boolean };

function Section({ title, id, children, actions }: { title: string; id: string; children: React.ReactNode; actions?: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <div className="flex items-center gap-2">
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/**
 * The task page: issue, patches, recipe, validation, agents' work, decisions and history.
 * In queue mode j/k move through the queue; everywhere a/r/n decide, e edits, v validates.
 */
export function TaskDetail({ taskId, queue }: { taskId: string; queue?: QueueControls }) {
  const client = useQueryClient();
  const { data: task, error, isLoading } = useTask(taskId);
  const canDecide = useCan("tasks:decide");
  const canEdit = useCan("environments:edit");
  const canRun = useCan("jobs:run");
  const [patchTab, setPatchTab] = useState<"fix" | "test">("fix");
  const [layout, setLayout] = useState<"side-by-side" | "inline">("side-by-side");
  const [help, setHelp] = useState(false);
  const decisionRef = useRef<DecisionFormHandle>(null);
  const recipeRef = useRef<RecipeEditorHandle>(null);

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ["task", taskId] }),
      // by prefix: the page may be addressed by instance id while the history is keyed by the task id
      client.invalidateQueries({ queryKey: ["task-history"] }),
      client.invalidateQueries({ queryKey: ["tasks"] }),
      client.invalidateQueries({ queryKey: ["task-facets"] }),
    ]);

  // the same request as the validation panel's button, for the v key and "re-validate after an edit"
  const validate = useMutation({
    mutationFn: () => apiFetch("/api/v1/runs", { method: "POST", json: { taskId } }),
    onSettled: () => Promise.all([refresh(), client.invalidateQueries({ queryKey: validationsKey(task?.id ?? taskId) })]),
  });

  const shortcuts: Shortcut[] = [
    ...(queue
      ? [
          { key: "j", description: "Next task in the queue", run: queue.next },
          { key: "k", description: "Previous task", run: queue.previous },
        ]
      : []),
    ...(canDecide
      ? [
          { key: "a", description: "Approve", run: () => decisionRef.current?.choose("APPROVE") },
          { key: "r", description: "Reject (pick reasons)", run: () => decisionRef.current?.choose("REJECT") },
          { key: "n", description: "Needs changes (pick reasons)", run: () => decisionRef.current?.choose("NEEDS_CHANGES") },
        ]
      : []),
    ...(canEdit ? [{ key: "e", description: "Edit the Dockerfile and eval script", run: () => recipeRef.current?.startEditing() }] : []),
    ...(canRun ? [{ key: "v", description: "Validate (both controls)", run: () => validate.mutate() }] : []),
    { key: "?", description: "Show these keys", run: () => setHelp(true) },
  ];
  useShortcuts(shortcuts, !!task);

  if (isLoading) return <p>Loading task…</p>;
  if (error || !task) return <ErrorText error={error} prefix="Could not load the task" />;
  const env = task.environment;
  const revision = env.currentRevision;

  return (
    <article className="flex flex-col gap-6" data-testid="task-detail" data-version={task.version}>
      <header className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="font-mono text-xl font-semibold" data-testid="instance-id">
            {task.instanceId}
          </h1>
          <Badge>{task.curationStatus}</Badge>
          {task.verdictHidden ? (
            <HiddenVerdict reason={task.verdictHidden} />
          ) : (
            <span className="text-sm text-slate-600">
              automated: <Badge>{task.verdictOverride ?? task.automatedVerdict}</Badge>
              {task.verdictOverride && <span title={task.overrideJustification ?? ""}> (override of {task.automatedVerdict})</span>}
            </span>
          )}
          {task.failureClass && <Badge tone="red">{humanize(task.failureClass)}</Badge>}
          <Button size="sm" variant="ghost" className="ml-auto" onClick={() => setHelp(true)} aria-label="Keyboard shortcuts">
            <kbd>?</kbd> keys
          </Button>
        </div>
        <p className="text-sm text-slate-600">
          <Link className="font-mono text-blue-700 underline" href={`/environments/${env.id}`}>
            {env.key}
          </Link>{" "}
          · {env.repository.owner}/{env.repository.name} · {humanize(task.source)} · {humanize(task.kind)} · difficulty {humanize(task.difficulty)} · approvals {task.approvals.count}/
          {task.approvals.required} · version <span data-testid="task-version">{task.version}</span>
          {task.assignee && <> · assigned to {task.assignee.name ?? task.assignee.email}</>}
          {task.leasedBy && task.leaseExpiresAt && new Date(task.leaseExpiresAt) > new Date() && (
            <>
              {" "}
              · in review by {task.leasedBy.name ?? task.leasedBy.email} until {new Date(task.leaseExpiresAt).toLocaleTimeString()}
            </>
          )}
        </p>
        {task.labels.length > 0 && (
          <div className="flex flex-wrap gap-1">
            {task.labels.map((l) => (
              <span key={l} className="rounded bg-slate-200 px-1.5 text-xs">
                {l}
              </span>
            ))}
          </div>
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

      <div className="grid gap-6 xl:grid-cols-[1fr_24rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <Section title="Problem statement" id="problem">
            <div className="rounded border border-slate-200 bg-white p-4">
              <Markdown html={task.problemStatementHtml} testId="problem-statement" />
            </div>
            {task.hintsHtml && (
              <details className="rounded border border-slate-200 bg-white p-3 text-sm">
                <summary className="cursor-pointer font-medium">Hints</summary>
                <Markdown html={task.hintsHtml} />
              </details>
            )}
            <p className="text-xs text-slate-600">
              FAIL_TO_PASS: <span className="font-mono">{task.failToPass.join(", ") || "—"}</span>
              <br />
              PASS_TO_PASS: <span className="font-mono">{task.passToPass.length ? `${task.passToPass.length} tests` : "—"}</span>
            </p>
          </Section>

          <Section title="Patches" id="patches">
            <Tabs
              label="Patches"
              value={patchTab}
              onChange={setPatchTab}
              tabs={[
                { id: "fix", label: "Fix patch" },
                { id: "test", label: "Test patch" },
              ]}
            />
            <PatchViewer key={patchTab} patch={patchTab === "fix" ? task.fixPatch : task.testPatch} label={patchTab === "fix" ? "Fix patch" : "Test patch"} layout={layout} onLayoutChange={setLayout} />
          </Section>

          <Section title="Environment recipe" id="recipe">
            <RecipeEditor
              ref={recipeRef}
              environmentId={env.id}
              revision={revision ? { number: revision.number, dockerfile: revision.dockerfile, evalScript: revision.evalScript, reason: revision.reason } : null}
              canEdit={canEdit}
              onSaved={() => refresh()}
              renderAfterSave={() =>
                canRun ? (
                  <Button size="sm" variant="primary" onClick={() => validate.mutate()} disabled={validate.isPending}>
                    Re-validate this task on the new revision
                  </Button>
                ) : null
              }
            />
          </Section>

          <Section title="Validation" id="validation">
            {validate.isSuccess && (
              <p role="status" className="text-sm text-slate-700">
                Validation queued: a negative and a positive control.
              </p>
            )}
            <ErrorText error={validate.error} />
            <ValidationPanel taskId={task.id} />
          </Section>

          <Section title="Image builds" id="builds">
            <EnvironmentBuildPanel environmentId={env.id} />
          </Section>

          <Section title="Agents" id="agents">
            <CandidatesAndTrajectories task={task} layout={layout} onLayoutChange={setLayout} />
          </Section>
        </div>

        <aside className="flex flex-col gap-6">
          {canDecide && !task.verdictHidden && (
            <Section title="Your decision" id="decide">
              <DecisionForm
                ref={decisionRef}
                taskId={task.id}
                version={task.version}
                automatedVerdict={task.verdictOverride ?? task.automatedVerdict}
                onDecided={async () => {
                  await refresh();
                  queue?.next();
                }}
                onStale={() => refresh()}
              />
            </Section>
          )}
          <Section title={`Decisions (${task.decisions.length})`} id="decisions">
            {task.decisions.length === 0 && <p className="text-sm text-slate-600">No curator has decided yet.</p>}
            <ul className="flex flex-col gap-2 text-sm" data-testid="decisions">
              {task.decisions.map((d) => (
                <li key={d.id} className="rounded border border-slate-200 bg-white p-2">
                  <div className="flex items-center gap-2">
                    <Badge>{d.verdict}</Badge>
                    <span className="font-medium">{d.curator.name ?? d.curator.email}</span>
                    <span className="ml-auto text-xs text-slate-500">
                      <TimeAgo value={d.createdAt} />
                    </span>
                  </div>
                  {d.reasons.length > 0 && <p className="mt-1 text-xs">{d.reasons.map((r) => DECISION_REASON_LABELS[r]).join(", ")}</p>}
                  {d.comment && <p className="mt-1 whitespace-pre-wrap text-xs text-slate-700">{d.comment}</p>}
                  {d.overridesAutomated && <p className="mt-1 text-xs text-amber-800">Overrides automation: {d.justification}</p>}
                </li>
              ))}
            </ul>
          </Section>
          {canDecide && !task.verdictHidden && (
            <Section title="Task details" id="fields">
              <TaskFieldsEditor
                taskId={task.id}
                version={task.version}
                fields={{ labels: task.labels, difficulty: task.difficulty, failToPass: task.failToPass, passToPass: task.passToPass }}
                onSaved={() => refresh()}
              />
            </Section>
          )}
          <Section title="History" id="history">
            <TaskHistory taskId={task.id} version={task.version} />
          </Section>
        </aside>
      </div>
      <ShortcutHelp open={help} onClose={() => setHelp(false)} shortcuts={shortcuts} />
    </article>
  );
}
