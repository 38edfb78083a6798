import { z } from "zod";
import { defineJob } from "../jobs/job-type";
import type { RecoverableJob } from "../worker-runtime/leased-job";

/** Builds one revision's image (workers/processors/build-environment.ts). */
export const BUILD_ENVIRONMENT = defineJob({
  name: "build-environment",
  needs: "docker",
  payload: z.object({
    buildId: z.string().min(1),
    /** rebuild every layer (the image exists but is suspected stale) */
    noCache: z.boolean().optional(),
  }),
});

/** The build job as the worker runtime requeues and recovers it. */
export const BUILD_JOB: RecoverableJob = {
  table: "builds",
  auditEntity: "build",
  requeueResets: "started_at = null,",
  cancelResets: "",
  failResets: "",
  job: BUILD_ENVIRONMENT,
  payloadFor: (buildId) => ({ buildId }),
};
