// Every container and image we create carries these, so prune and crash recovery find
// ours (and only ours) on a Docker host shared with other software.
export const LABEL_MANAGED = "io.swe-curator.managed";
export const LABEL_KIND = "io.swe-curator.kind";
export const LABEL_RUN_ID = "io.swe-curator.run-id";
export const LABEL_BUILD_ID = "io.swe-curator.build-id";
export const LABEL_WORKER_ID = "io.swe-curator.worker-id";
export const LABEL_CONTEXT_HASH = "io.swe-curator.context-hash";

export function runContainerLabels(runId: string, workerId: string): Record<string, string> {
  return { [LABEL_MANAGED]: "true", [LABEL_KIND]: "validation", [LABEL_RUN_ID]: runId, [LABEL_WORKER_ID]: workerId };
}
