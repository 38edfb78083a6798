import type { Db } from "../db/client";
import { enqueueJob, unlockJobOfDeadWorker } from "./enqueue-job";
import { JOB_NAMES, jobKeyFor } from "./job-names";
import type { LeasedTable } from "./row-lease";

const RESET_COLUMNS: Record<LeasedTable, string> = {
  validation_runs: "container_id = null, phase = null,",
  builds: "",
};

export type RequeueGuard = { ownedBy: string } | { leaseOlderThanMs: number };

/**
 * Hands a RUNNING row back to the queue (its worker is shutting down, or died and its
 * lease expired) and re-enqueues its job in the same transaction. Returns false when the
 * guard no longer holds (someone else already moved the row on).
 */
export async function requeueRow(tx: Db, table: LeasedTable, id: string, reason: string, guard: RequeueGuard): Promise<boolean> {
  const condition = "ownedBy" in guard ? "worker_id = $3" : "heartbeat_at < now() - ($3::int * interval '1 millisecond')";
  const rows = await tx.$queryRawUnsafe<unknown[]>(
    `update ${table} set status = 'QUEUED', worker_id = null, heartbeat_at = null, started_at = null, ${RESET_COLUMNS[table]}
       error_message = $2, updated_at = now()
     where id = $1 and status = 'RUNNING' and ${condition} returning id`,
    id,
    reason,
    "ownedBy" in guard ? guard.ownedBy : guard.leaseOlderThanMs,
  );
  if (rows.length !== 1) return false;
  await enqueueJobForRow(tx, table, id, { unlockDeadWorker: true });
  return true;
}

/** The job that works a Build or ValidationRun row, keyed by the row. */
export async function enqueueJobForRow(db: Db, table: LeasedTable, id: string, options: { unlockDeadWorker?: boolean } = {}) {
  const jobKey = table === "builds" ? jobKeyFor.build(id) : jobKeyFor.run(id);
  if (options.unlockDeadWorker) await unlockJobOfDeadWorker(db, jobKey);
  if (table === "builds") await enqueueJob(db, JOB_NAMES.buildEnvironment, { buildId: id }, { jobKey });
  else await enqueueJob(db, JOB_NAMES.validateTask, { runId: id }, { jobKey });
}
