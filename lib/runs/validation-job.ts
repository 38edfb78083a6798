import { z } from "zod";
import type { Db } from "../db/client";
import { defineJob } from "../jobs/job-type";
import type { RecoverableJob } from "../worker-runtime/leased-job";
import { settleGroupOfRun } from "./settle-validation-group";

/** The run's image, once a worker has worked out its revision's build context (null before). */
async function imageHashOfRun(db: Db, runId: string): Promise<string | null> {
  const rows = await db.$queryRaw<Array<{ context_hash: string | null }>>`
    select v.context_hash from validation_runs r join environment_revisions v on v.id = r.revision_id where r.id = ${runId}`;
  return rows[0]?.context_hash ?? null;
}

/** Runs one validation of a task in a container (workers/processors/validate-task.ts). */
export const VALIDATE_TASK = defineJob({
  name: "validate-task",
  needs: "docker",
  payload: z.object({ runId: z.string().min(1) }),
});

/** The validation job as the worker runtime requeues and recovers it. */
export const VALIDATION_JOB: RecoverableJob = {
  table: "validation_runs",
  auditEntity: "validation_run",
  requeueResets: "started_at = null, container_id = null, phase = null,",
  cancelResets: "phase = null,",
  failResets: "failure_class = 'INFRA_ERROR', phase = null,",
  job: VALIDATE_TASK,
  payloadFor: (runId) => ({ runId }),
  // the image goes on the job so a worker that already holds it claims it first
  imageHashOf: imageHashOfRun,
  // a run given up on may be the last of its group: the group's verdict is settled with it
  afterGaveUp: settleGroupOfRun,
};
