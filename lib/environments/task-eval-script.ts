import type { ImageSource } from "../db/client";
import { evalScriptFor } from "./derived-eval-script";
import { specSourceOfRun, specTestCommand } from "./spec-instance";

// What the task page's Recipe tab shows as the eval script: exactly what a validation run of
// this task would execute (lib/runs/execute-validation-run.ts makes the same call), so an
// IMAGE or SPEC environment's stored placeholder is never shown as if it ran.

type Task = {
  instanceId: string;
  testPatch: string;
  fixPatch: string;
  failToPass: string[];
  passToPass: string[];
  metadata: unknown;
};
type Environment = {
  imageSource: ImageSource;
  version: string | null;
  baseCommit: string;
  setupCommit: string | null;
  repository: { owner: string; name: string };
};

/** The eval script a run of `task` uses, and whether it is derived per task (IMAGE, SPEC) rather than the revision's own. */
export function taskEvalScript(
  task: Task,
  environment: Environment,
  revision: { evalScript: string },
): { script: string; derived: boolean } {
  const script = evalScriptFor(
    { evalScript: revision.evalScript, environment },
    task,
    specTestCommand(specSourceOfRun(task, environment)),
  );
  return { script, derived: environment.imageSource === "IMAGE" || environment.imageSource === "SPEC" };
}
