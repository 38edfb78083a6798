import type { Db } from "../db/client";
import { flagsFor } from "./job-flags";
import type { JobType } from "./job-type";

export type EnqueueOptions = {
  jobKey?: string;
  maxAttempts?: number;
  priority?: number;
  /** run no sooner than this, by the database's clock */
  delayMs?: number;
  /** the build-context hash of the image a validation runs in: engines holding it get the first chance */
  imageHash?: string | null;
};

// Our processors record their own failures on the row and return; the queue retries only
// when a processor throws (the database vanished mid-job), so a few attempts suffice.
const DEFAULT_MAX_ATTEMPTS = 3;

/**
 * Adds a job with graphile-worker's SQL API on the caller's connection, so called inside
 * the transaction that creates the Build / ValidationRun row, the row and its job commit
 * (or roll back) together.
 */
export async function enqueueJob<Payload>(
  db: Db,
  job: JobType<Payload>,
  payload: Payload,
  options: EnqueueOptions = {},
): Promise<void> {
  const parsed = job.payload.parse(payload);
  await db.$executeRaw`
    select graphile_worker.add_job(
      identifier => ${job.name}::text,
      payload => ${JSON.stringify(parsed)}::json,
      max_attempts => ${options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS}::smallint,
      run_at => now() + ${options.delayMs ?? 0}::int * interval '1 millisecond',
      job_key => ${options.jobKey ?? null}::text,
      priority => ${options.priority ?? 0}::smallint,
      flags => ${flagsFor(job.needs, options.imageHash)}::text[]
    )`;
}

/**
 * Unlocks a row's job still held by a dead worker, so the next add_job with its key
 * replaces it instead of leaving a ghost locked job behind.
 */
export async function unlockJobOfDeadWorker(db: Db, jobKey: string): Promise<void> {
  await db.$executeRaw`
    select graphile_worker.force_unlock_workers(array(
      select locked_by from graphile_worker.jobs where key = ${jobKey} and locked_by is not null
    ))`;
}

/** Drops a row's job that has not started yet (a cancelled QUEUED row); a running one is left to finish. */
export async function removeQueuedJob(db: Db, jobKey: string): Promise<void> {
  await db.$executeRaw`select graphile_worker.remove_job(${jobKey}::text)`;
}
