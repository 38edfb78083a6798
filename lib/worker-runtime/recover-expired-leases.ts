import type { PrismaClient } from "../db/client";
import type { RecoverableJob } from "./leased-job";
import { enqueueJobForRow, requeueRow } from "./requeue-row";
import type { LeasedTable } from "./row-lease";
import type { WorkerConfig } from "./worker-config";

type ExpiredRow = { id: string; attempts: number; cancel_requested: boolean; worker_id: string | null };

export type RecoveryReport = { requeued: string[]; failed: string[]; cancelled: string[]; reenqueued: string[] };

// A lease has expired when its row has not been renewed for leaseMs while the database was
// up: after a database restart every worker gets leaseMs to renew before its rows are taken.
export const leaseExpired = (leaseMsParam: string) =>
  `greatest(coalesce(heartbeat_at, started_at, updated_at), pg_postmaster_start_time()) < now() - (${leaseMsParam}::int * interval '1 millisecond')`;

/** RUNNING rows of a leased table whose lease expired (at most 200 at a time). */
export async function expiredLeases(db: PrismaClient, table: LeasedTable, leaseMs: number): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(
    `select id from ${table} where status = 'RUNNING' and ${leaseExpired("$1")} limit 200`,
    leaseMs,
  );
  return rows.map((row) => row.id);
}

async function recoverRowsOf(
  db: PrismaClient,
  job: RecoverableJob,
  config: Pick<WorkerConfig, "leaseMs" | "maxRunAttempts">,
  report: RecoveryReport,
) {
  const { table } = job;
  const seconds = Math.round(config.leaseMs / 1000);
  for (const id of await expiredLeases(db, table, config.leaseMs)) {
    await db.$transaction(async (tx) => {
      // skip locked: another worker's recovery may be handling this very row
      const [row] = await tx.$queryRawUnsafe<ExpiredRow[]>(
        `select id, attempts, cancel_requested, worker_id from ${table}
         where id = $1 and status = 'RUNNING' and ${leaseExpired("$2")}
         for update skip locked`,
        id,
        config.leaseMs,
      );
      if (!row) return;
      const lost = `Worker ${row.worker_id ?? "?"} stopped responding (no heartbeat for ${seconds} s)`;
      if (row.cancel_requested) {
        await tx.$executeRawUnsafe(
          `update ${table} set status = 'CANCELLED', ${job.cancelResets} error_message = $2, finished_at = now(), updated_at = now() where id = $1`,
          id,
          `${lost}; it had been cancelled`,
        );
        report.cancelled.push(id);
      } else if (row.attempts < config.maxRunAttempts) {
        if (
          await requeueRow(tx, job, id, `${lost}; retrying (attempt ${row.attempts + 1} of ${config.maxRunAttempts})`, {
            leaseOlderThanMs: config.leaseMs,
          })
        )
          report.requeued.push(id);
      } else {
        await tx.$executeRawUnsafe(
          `update ${table} set status = 'FAILED', ${job.failResets} error_message = $2, finished_at = now(), updated_at = now() where id = $1`,
          id,
          `${lost} mid-run; gave up after ${row.attempts} attempts`,
        );
        await job.afterGaveUp?.(tx, id);
        report.failed.push(id);
      }
    });
  }
}

/**
 * A QUEUED row must always have a live job. Should one go missing (a job deleted by a
 * worker that completed it after losing the row) or run out of queue attempts (its claim
 * failed on every try while the database was away), put it back.
 */
async function reenqueueOrphans(
  db: PrismaClient,
  job: RecoverableJob,
  config: Pick<WorkerConfig, "leaseMs">,
  report: RecoveryReport,
) {
  // a row's job key is the job's prefix and the row's id
  const orphans = await db.$queryRawUnsafe<Array<{ id: string }>>(
    `select r.id from ${job.table} r
     where r.status = 'QUEUED' and r.updated_at < now() - ($1::int * interval '1 millisecond')
       and not exists (select 1 from graphile_worker.jobs j where j.key = $2 || r.id and j.attempts < j.max_attempts)
     limit 200`,
    config.leaseMs,
    job.job.keyFor(""),
  );
  for (const { id } of orphans) {
    await enqueueJobForRow(db, job, id);
    report.reenqueued.push(id);
  }
}

/**
 * Crash safety: RUNNING rows whose worker stopped heartbeating (SIGKILL, lost machine) go
 * back to the queue, or — after maxRunAttempts — FAILED with the reason. Every worker
 * runs this periodically over the jobs it works (each declares what its rows clear); row
 * locks make concurrent recoveries safe.
 */
export async function recoverExpiredLeases(
  db: PrismaClient,
  config: Pick<WorkerConfig, "leaseMs" | "maxRunAttempts">,
  jobs: readonly RecoverableJob[],
): Promise<RecoveryReport> {
  const report: RecoveryReport = { requeued: [], failed: [], cancelled: [], reenqueued: [] };
  for (const job of jobs) await recoverRowsOf(db, job, config, report);
  for (const job of jobs) await reenqueueOrphans(db, job, config, report);
  return report;
}
