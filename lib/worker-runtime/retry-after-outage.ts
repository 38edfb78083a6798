import { sleepUntilAborted as sleep } from "@/lib/async/sleep-until-aborted";
import type { Db } from "../db/client";
import { databaseUnavailableMessage, isDatabaseUnavailable } from "../db/database-errors";
import { DockerUnavailableError, EngineStoppedError } from "../docker/docker-errors";
import { RegistryUnavailableError } from "../docker/image-transfer";
import { requeueRow } from "./requeue-row";
import type { RecoverableJob } from "./leased-job";
import type { WorkerContext } from "./worker-context";

// The one policy for "the database or the Docker engine went away under a job": nothing the
// job saw is judged; its row goes back to the queue with a sentence saying why, to run again
// later without spending one of its attempts (those are for crashed workers). The waits
// double, and after OUTAGE_RETRY_LIMIT hand-backs the row is FAILED with a readable reason
// instead of waiting forever.

/** hand-backs of one row for outages before it is given up on (at the default 5 s first wait: about 21 minutes in all) */
export const OUTAGE_RETRY_LIMIT = 8;

/**
 * What a job cannot help: the database restarting or the Docker engine away (or stopping
 * under it). Returns a sentence for the row, or null for an error that is the job's own.
 */
export function outageReason(error: unknown): string | null {
  if (isDatabaseUnavailable(error)) return `The job stopped because ${databaseUnavailableMessage(error)}`;
  if (error instanceof EngineStoppedError) return error.message;
  if (error instanceof RegistryUnavailableError) return `The job stopped because ${error.message}`;
  if (error instanceof DockerUnavailableError || (error as { retryable?: unknown } | null)?.retryable === true) {
    return `The job stopped because the Docker engine was unavailable: ${(error as Error).message}`;
  }
  return null;
}

/** "retried": the row is back on the queue (or left to lease recovery); gaveUp: the sentence to fail the row with. */
export type OutageOutcome = "retried" | { gaveUp: string };

// node's own abortable timer: it drops its abort listener when it fires, so a long wait
// on a long-lived signal (a worker's shutdown, a browser's request) does not pile them up

const seconds = (ms: number) => Math.round(ms / 1000);

async function handBackOrGiveUp(
  ctx: WorkerContext,
  tx: Db,
  job: RecoverableJob,
  id: string,
  reason: string,
): Promise<OutageOutcome> {
  const [row] = await tx.$queryRawUnsafe<Array<{ outage_retries: number }>>(
    `select outage_retries from ${job.table} where id = $1 and status = 'RUNNING' and worker_id = $2 for update`,
    id,
    ctx.workerId,
  );
  if (!row) return "retried"; // someone else moved the row on: nothing left to do here
  if (row.outage_retries >= OUTAGE_RETRY_LIMIT) {
    const waited = seconds(ctx.config.outageRetryMs * (2 ** OUTAGE_RETRY_LIMIT - 1));
    return {
      gaveUp: `${reason}. It was handed back ${OUTAGE_RETRY_LIMIT} times over about ${Math.round(waited / 60)} minutes and the outage lasted; once the database and the Docker engine answer again, start it again`,
    };
  }
  const delayMs = ctx.config.outageRetryMs * 2 ** row.outage_retries;
  const message = `${reason}; it runs again in ${seconds(delayMs)} s (outage retry ${row.outage_retries + 1} of ${OUTAGE_RETRY_LIMIT}; this does not count as an attempt)`;
  await requeueRow(
    tx,
    job,
    id,
    message,
    { ownedBy: ctx.workerId },
    { delayMs, refundAttempt: true, outageRetry: true },
  );
  return "retried";
}

/**
 * When a job met an outage, hands its row back to the queue (or says to give up, past the
 * limit). The hand-back itself is retried while the database is still away, up to the
 * lease: past that, lease recovery takes the row back. Null for errors that are no outage.
 */
export async function retryAfterOutage(
  ctx: WorkerContext,
  job: RecoverableJob,
  id: string,
  error: unknown,
): Promise<OutageOutcome | null> {
  const reason = outageReason(error);
  if (!reason) return null;
  const deadline = Date.now() + ctx.config.leaseMs;
  for (;;) {
    try {
      return await ctx.db.$transaction((tx) => handBackOrGiveUp(ctx, tx, job, id, reason));
    } catch (writeError) {
      if (!isDatabaseUnavailable(writeError) || Date.now() > deadline || ctx.shutdownSignal.aborted) return "retried";
      await sleep(Math.min(1_000, ctx.config.heartbeatMs), ctx.shutdownSignal);
    }
  }
}
