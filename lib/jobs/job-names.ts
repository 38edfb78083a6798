/** The job types on the queue, shared by the code that enqueues and the workers. */
export const JOB_NAMES = {
  buildEnvironment: "build-environment",
  validateTask: "validate-task",
  pruneDocker: "prune-docker",
  importFile: "import-file",
  replayStep: "replay-step",
} as const;

export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];

/** Job keys tie a job to its row: re-enqueueing the same row replaces, never duplicates. */
export const jobKeyFor = {
  build: (buildId: string) => `${JOB_NAMES.buildEnvironment}:${buildId}`,
  run: (runId: string) => `${JOB_NAMES.validateTask}:${runId}`,
  importBatch: (batchId: string) => `${JOB_NAMES.importFile}:${batchId}`,
  replay: (replayId: string) => `${JOB_NAMES.replayStep}:${replayId}`,
};
