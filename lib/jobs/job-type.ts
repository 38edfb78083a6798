import type { z } from "zod";
import { JOB_FLAG } from "./job-flags";

/** What a job needs of the worker that claims it (its flag on the queue, lib/jobs/job-flags.ts). */
export type JobNeed = keyof typeof JOB_FLAG;

/**
 * One background job type, declared beside the feature that owns it (lib/builds/build-job.ts,
 * lib/runs/validation-job.ts, lib/imports/import-lease.ts, lib/trajectories/replay/replay-job.ts,
 * lib/worker-runtime/prune-job.ts): its name on the queue, its payload, what it needs of a
 * worker and the key that ties it to its row. lib/jobs knows no job: it enqueues whichever it is handed.
 */
export type JobType<Payload> = {
  name: string;
  payload: z.ZodType<Payload>;
  needs: JobNeed;
  /** the job key of a row's job: re-enqueueing the same row replaces, never duplicates */
  keyFor(id: string): string;
};

export function defineJob<Payload>(job: Omit<JobType<Payload>, "keyFor">): JobType<Payload> {
  return { ...job, keyFor: (id) => `${job.name}:${id}` };
}
