import { createHash } from "node:crypto";

// Every container and image we create carries these, so prune and crash recovery find
// ours (and only ours) on a Docker host shared with other software.
export const LABEL_MANAGED = "io.swe-curator.managed";
export const LABEL_KIND = "io.swe-curator.kind";
export const LABEL_RUN_ID = "io.swe-curator.run-id";
export const LABEL_BUILD_ID = "io.swe-curator.build-id";
export const LABEL_REPLAY_ID = "io.swe-curator.replay-id";
export const LABEL_WORKER_ID = "io.swe-curator.worker-id";
export const LABEL_CONTEXT_HASH = "io.swe-curator.context-hash";
/** which database's rows a container belongs to: installations (or test files) sharing a Docker host leave each other's alone */
export const LABEL_INSTALLATION = "io.swe-curator.installation";

/** A stable, password-free id of the database a worker serves. */
export function installationId(connectionString: string): string {
  const url = new URL(connectionString);
  return createHash("sha256")
    .update(`${url.hostname}:${url.port || 5432}${url.pathname}`)
    .digest("hex")
    .slice(0, 16);
}

export function runContainerLabels(run: {
  runId: string;
  workerId: string;
  installation: string;
}): Record<string, string> {
  return {
    [LABEL_MANAGED]: "true",
    [LABEL_KIND]: "validation",
    [LABEL_RUN_ID]: run.runId,
    [LABEL_WORKER_ID]: run.workerId,
    [LABEL_INSTALLATION]: run.installation,
  };
}

/** A step replay's container (lib/trajectories/replay): locked down as a validation's, found by its replay. */
export function replayContainerLabels(replay: {
  replayId: string;
  workerId: string;
  installation: string;
}): Record<string, string> {
  return {
    [LABEL_MANAGED]: "true",
    [LABEL_KIND]: "replay",
    [LABEL_REPLAY_ID]: replay.replayId,
    [LABEL_WORKER_ID]: replay.workerId,
    [LABEL_INSTALLATION]: replay.installation,
  };
}

/** A container that only lends its filesystem to read an image's base files; never started. */
export function baseFileContainerLabels(facts: { workerId: string; installation: string }): Record<string, string> {
  return {
    [LABEL_MANAGED]: "true",
    [LABEL_KIND]: "base-files",
    [LABEL_WORKER_ID]: facts.workerId,
    [LABEL_INSTALLATION]: facts.installation,
  };
}
