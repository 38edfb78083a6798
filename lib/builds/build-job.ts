import { enqueueJob } from "../jobs/enqueue-job";
import { JOB_NAMES, jobKeyFor } from "../jobs/job-names";
import type { RecoverableJob } from "../worker-runtime/leased-job";

/** The build job as the worker runtime requeues and recovers it. */
export const BUILD_JOB: RecoverableJob = {
  table: "builds",
  auditEntity: "build",
  requeueResets: "started_at = null,",
  cancelResets: "",
  failResets: "",
  jobKey: jobKeyFor.build,
  enqueue: (db, buildId, options) => enqueueJob(db, JOB_NAMES.buildEnvironment, { buildId }, options),
};
