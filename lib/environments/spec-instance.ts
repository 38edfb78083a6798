import { harnessSpecFor, testCommandFor, type SpecInstance } from "./spec";
import type { SpecTestCommand } from "./derived-eval-script";

// The bridge between our rows and the spec generator (lib/environments/spec, built from the
// harness's per-repository, per-version specs): a task as the generator takes it.

const installConfigOf = (metadata: unknown) => (metadata as { install_config?: unknown } | null)?.install_config;

export type SpecSource = {
  instanceId: string;
  repo: string;
  version: string | null;
  baseCommit: string;
  setupCommit: string | null;
  testPatch: string;
  fixPatch?: string;
  failToPass: string[];
  passToPass: string[];
  metadata: unknown;
};

export function specInstanceOf(source: SpecSource): SpecInstance {
  return {
    instanceId: source.instanceId,
    repo: source.repo,
    version: source.version,
    baseCommit: source.baseCommit,
    environmentSetupCommit: source.setupCommit,
    testPatch: source.testPatch,
    patch: source.fixPatch,
    failToPass: source.failToPass,
    passToPass: source.passToPass,
    installConfig: installConfigOf(source.metadata) ?? undefined,
  };
}

/** Whether the harness's specs can generate this task's environment (known repository and version, or an install_config). */
export const specAvailable = (source: SpecSource) => harnessSpecFor(specInstanceOf(source)).ok;

/** The repository's test command from the harness's specs, for the derived eval script; null when the specs do not know it. */
export function specTestCommand(source: Omit<SpecSource, "testPatch" | "metadata" | "instanceId">): SpecTestCommand {
  return (task) => {
    const found = testCommandFor(
      specInstanceOf({ ...source, instanceId: task.instanceId, testPatch: task.testPatch, metadata: task.metadata }),
    );
    return found.ok
      ? {
          command: found.command,
          directives: found.directives,
          from: `the harness spec for ${source.repo} ${source.version ?? ""}`.trim(),
        }
      : null;
  };
}

type RunTask = {
  instanceId: string;
  testPatch: string;
  fixPatch: string;
  failToPass: string[];
  passToPass: string[];
  metadata: unknown;
};
type RunEnvironment = {
  version: string | null;
  baseCommit: string;
  setupCommit: string | null;
  repository: { owner: string; name: string };
};

/** A validation run's task as the spec generator takes it. */
export function specSourceOfRun(task: RunTask, environment: RunEnvironment): SpecSource {
  return {
    instanceId: task.instanceId,
    repo: `${environment.repository.owner}/${environment.repository.name}`,
    version: environment.version,
    baseCommit: environment.baseCommit,
    setupCommit: environment.setupCommit,
    testPatch: task.testPatch,
    fixPatch: task.fixPatch,
    failToPass: task.failToPass,
    passToPass: task.passToPass,
    metadata: task.metadata,
  };
}
