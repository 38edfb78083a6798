"use client";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { useCan } from "@/components/auth/actor-context";
import { RecipeEditor, type RecipeEditorHandle } from "@/components/environments/recipe-editor";
import { ValidationPanel } from "@/components/validation/validation-panel";
import { EnvironmentBuildPanel } from "@/components/validation/environment-build-panel";
import { EvidenceMatrixPanel } from "@/components/validation/evidence-matrix";
import type { DecisionFormHandle } from "./decision-form";
import { DecisionSection } from "./decision-section";
import { TaskHistory } from "./task-history";
import { CandidatesAndTrajectories } from "./candidates-and-trajectories";
import { TaskFieldsEditor } from "./task-fields-editor";
import { useShortcuts, type Shortcut } from "./use-shortcuts";
import { ShortcutHelp } from "./shortcut-help";
import { TaskHeader, type QueueControls } from "./task-header";
import { NextStep } from "./next-step";
import { PatchEvidence, ProblemEvidence } from "./task-evidence";
import { TaskSection } from "./task-section";
import { useRefreshTask, useTask, useValidateTask, type TaskDetailJson } from "./use-task";

export { useTask, type TaskDetailJson };

/** The page's keys: j/k in the queue, a/r/n decide, e edits the recipe, v validates, ? lists them. */
function useTaskShortcuts(
  actions: {
    queue?: QueueControls;
    decide: (verdict: "APPROVE" | "REJECT" | "NEEDS_CHANGES") => void;
    edit: () => void;
    validate: () => void;
    help: () => void;
  },
  enabled: boolean,
) {
  const canDecide = useCan("tasks:decide");
  const canEdit = useCan("environments:edit");
  const canRun = useCan("jobs:run");
  const { queue } = actions;
  const shortcuts: Shortcut[] = [
    ...(queue
      ? [
          { key: "j", description: "Next task in the queue", run: queue.next },
          { key: "k", description: "Previous task", run: queue.previous },
        ]
      : []),
    ...(canDecide
      ? [
          { key: "a", description: "Approve", run: () => actions.decide("APPROVE") },
          { key: "r", description: "Reject (pick reasons)", run: () => actions.decide("REJECT") },
          { key: "n", description: "Needs changes (pick reasons)", run: () => actions.decide("NEEDS_CHANGES") },
        ]
      : []),
    ...(canEdit ? [{ key: "e", description: "Edit the Dockerfile and eval script", run: actions.edit }] : []),
    ...(canRun ? [{ key: "v", description: "Validate (both controls)", run: actions.validate }] : []),
    { key: "?", description: "Show these keys", run: actions.help },
  ];
  useShortcuts(shortcuts, enabled);
  return shortcuts;
}

/**
 * The task page, in the order a curator works: what the task is (issue, tests, patches),
 * whether it holds (validation, recipe, builds, agents' runs), then the decision. One
 * primary button at the top says what to do next.
 */
export function TaskDetail({ taskId, queue }: { taskId: string; queue?: QueueControls }) {
  const { data: task, error, isLoading } = useTask(taskId);
  const canDecide = useCan("tasks:decide");
  const canEdit = useCan("environments:edit");
  const canRun = useCan("jobs:run");
  const [layout, setLayout] = useState<"side-by-side" | "inline">("side-by-side");
  const [help, setHelp] = useState(false);
  const decisionRef = useRef<DecisionFormHandle>(null);
  const recipeRef = useRef<RecipeEditorHandle>(null);
  const refresh = useRefreshTask(taskId);
  const validate = useValidateTask(taskId, task?.id);
  const shortcuts = useTaskShortcuts(
    {
      queue,
      decide: (verdict) => decisionRef.current?.choose(verdict),
      edit: () => recipeRef.current?.startEditing(),
      validate: () => validate.mutate(),
      help: () => setHelp(true),
    },
    !!task,
  );

  if (isLoading) return <p>Loading task…</p>;
  if (error || !task) return <ErrorText error={error} prefix="Could not load the task" />;
  return (
    <article className="flex flex-col gap-8" data-testid="task-detail" data-version={task.version}>
      <div className="flex flex-col gap-3">
        <TaskHeader task={task} queue={queue} onHelp={() => setHelp(true)} />
        {/* a blind annotator learns neither the verdict nor the runs, so there is no next step to show */}
        {!task.verdictHidden && (
          <NextStep
            taskId={task.id}
            verdict={task.verdictOverride ?? task.automatedVerdict}
            onValidate={() => validate.mutate()}
            validating={validate.isPending}
            validateError={validate.error}
            onDecide={() => decisionRef.current?.focus()}
          />
        )}
      </div>

      <TaskSection title="The issue and its tests" id="problem" step={1}>
        <ProblemEvidence task={task} />
      </TaskSection>
      <TaskSection title="Patches" id="patches" step={2}>
        <PatchEvidence task={task} layout={layout} onLayoutChange={setLayout} />
      </TaskSection>
      <TaskSection title="Validation" id="validation" step={3}>
        {validate.isSuccess && (
          <p role="status" className="text-sm text-slate-700">
            Validation queued: a negative and a positive control.
          </p>
        )}
        <ValidationPanel taskId={task.id} />
      </TaskSection>
      {/* a blind annotator may not compare runs: their outcomes would tell the verdict */}
      {!task.verdictHidden && (
        <TaskSection title="Evidence per test" id="evidence">
          <EvidenceMatrixPanel taskId={task.id} />
        </TaskSection>
      )}
      <TaskFacts
        task={task}
        layout={layout}
        onLayoutChange={setLayout}
        recipeRef={recipeRef}
        canEdit={canEdit}
        canRun={canRun}
        onSaved={refresh}
        onRevalidate={() => validate.mutate()}
        revalidating={validate.isPending}
      />
      {!task.verdictHidden && (
        <TaskSection title="Decision" id="decide" step={4}>
          <DecisionSection
            ref={decisionRef}
            task={task}
            onDecided={async (decision) => {
              await refresh();
              queue?.decided?.({ ...decision, taskId: task.id, instanceId: task.instanceId });
              queue?.next();
            }}
            onStale={() => refresh()}
          />
        </TaskSection>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        {canDecide && !task.verdictHidden && (
          <TaskSection title="Task details" id="fields">
            <TaskFieldsEditor
              taskId={task.id}
              version={task.version}
              fields={{
                labels: task.labels,
                difficulty: task.difficulty,
                failToPass: task.failToPass,
                passToPass: task.passToPass,
              }}
              onSaved={() => refresh()}
            />
          </TaskSection>
        )}
        <TaskSection title="History" id="history">
          <TaskHistory taskId={task.id} version={task.version} />
        </TaskSection>
      </div>
      <ShortcutHelp open={help} onClose={() => setHelp(false)} shortcuts={shortcuts} />
    </article>
  );
}

type FactsProps = {
  task: TaskDetailJson;
  layout: "side-by-side" | "inline";
  onLayoutChange: (layout: "side-by-side" | "inline") => void;
  recipeRef: React.RefObject<RecipeEditorHandle | null>;
  canEdit: boolean;
  canRun: boolean;
  onSaved: () => void;
  onRevalidate: () => void;
  revalidating: boolean;
};

/** What the validation stands on: the environment's recipe and image builds, and agents' attempts at the task. */
function TaskFacts({
  task,
  layout,
  onLayoutChange,
  recipeRef,
  canEdit,
  canRun,
  onSaved,
  onRevalidate,
  revalidating,
}: FactsProps) {
  const env = task.environment;
  const revision = env.currentRevision;
  return (
    <>
      <TaskSection title="Environment recipe" id="recipe">
        <RecipeEditor
          ref={recipeRef}
          environmentId={env.id}
          revision={
            revision
              ? {
                  number: revision.number,
                  dockerfile: revision.dockerfile,
                  evalScript: revision.evalScript,
                  reason: revision.reason,
                }
              : null
          }
          derivedEvalScript={task.evalScript?.derived ? task.evalScript.script : null}
          canEdit={canEdit}
          onSaved={onSaved}
          renderAfterSave={() =>
            canRun ? (
              <Button size="sm" onClick={onRevalidate} disabled={revalidating}>
                Re-validate this task on the new revision
              </Button>
            ) : null
          }
        />
      </TaskSection>
      <TaskSection title="Image builds" id="builds">
        <EnvironmentBuildPanel environmentId={env.id} />
      </TaskSection>
      <TaskSection title="Agents" id="agents">
        <CandidatesAndTrajectories task={task} layout={layout} onLayoutChange={onLayoutChange} />
      </TaskSection>
    </>
  );
}
