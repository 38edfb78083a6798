import type { Db } from "../db/client";
import { auditLog } from "../audit/audit-log";
import { enqueueJob, unlockJobOfDeadWorker } from "../jobs/enqueue-job";
import type { LeasedJob } from "./leased-job";

export type RequeueGuard = { ownedBy: string } | { leaseOlderThanMs: number };

export type RequeueOptions = {
  /** the job runs again no sooner than this */
  delayMs?: number;
  /** a passing outage, not the job's fault: the attempt is given back (the retry budget is for crashes) */
  refundAttempt?: boolean;
  /** counts against the row's outage retries (runs and builds only) */
  outageRetry?: boolean;
};

type RequeuedRow = { id: string; attempts: number; worker_id: string | null };

async function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return "$transaction" in db ? db.$transaction((tx) => fn(tx)) : fn(db);
}

/**
 * Hands a RUNNING row back to the queue (its worker is shutting down, hit an outage, or
 * died and its lease expired) and re-enqueues its job in the same transaction. The reason
 * goes on the row and into its audit history, so the final record still tells why the run
 * was retried. Returns false when the guard no longer holds (someone else moved the row on).
 */
export async function requeueRow(
  db: Db,
  job: LeasedJob,
  id: string,
  reason: string,
  guard: RequeueGuard,
  options: RequeueOptions = {},
): Promise<boolean> {
  const condition =
    "ownedBy" in guard ? "t.worker_id = $3" : "t.heartbeat_at < now() - ($3::int * interval '1 millisecond')";
  return inTransaction(db, async (tx) => {
    const [row] = await tx.$queryRawUnsafe<RequeuedRow[]>(
      `with previous as (select id, worker_id from ${job.table} where id = $1 for update)
       update ${job.table} t set status = 'QUEUED', worker_id = null, heartbeat_at = null, ${job.requeueResets}
         ${options.outageRetry ? "outage_retries = t.outage_retries + 1," : ""}
         attempts = t.attempts - $4::int, error_message = $2, updated_at = now()
       from previous where t.id = previous.id and t.status = 'RUNNING' and ${condition}
       returning t.id, t.attempts, previous.worker_id`,
      id,
      reason,
      "ownedBy" in guard ? guard.ownedBy : guard.leaseOlderThanMs,
      options.refundAttempt ? 1 : 0,
    );
    if (!row) return false;
    // an attempt an outage ended is the infrastructure's fault, and its history says so
    const failureClass = options.outageRetry ? { failureClass: "INFRA_ERROR" } : {};
    const after = {
      reason,
      ...failureClass,
      workerId: row.worker_id,
      attemptsSpent: row.attempts,
      retryInMs: options.delayMs ?? 0,
    };
    await auditLog(tx, { actorId: null, entityType: job.auditEntity, entityId: id, action: "requeued", after });
    // a live worker requeueing its own row must not unlock its job: the job it is running is completed (deleted) when it returns
    await enqueueJobForRow(tx, job, id, { unlockDeadWorker: "leaseOlderThanMs" in guard, delayMs: options.delayMs });
    return true;
  });
}

/** The job that works a leased row, keyed by the row (re-enqueueing replaces). */
export async function enqueueJobForRow(
  db: Db,
  job: LeasedJob,
  id: string,
  options: { unlockDeadWorker?: boolean; delayMs?: number } = {},
) {
  const jobKey = job.job.keyFor(id);
  if (options.unlockDeadWorker) await unlockJobOfDeadWorker(db, jobKey);
  const imageHash = job.imageHashOf ? await job.imageHashOf(db, id) : undefined;
  await enqueueJob(db, job.job, job.payloadFor(id), { jobKey, delayMs: options.delayMs, imageHash });
}
