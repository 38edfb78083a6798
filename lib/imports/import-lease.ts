import { hostname } from "node:os";
import type { Db, PrismaClient } from "../db/client";
import { enqueueJob, unlockJobOfDeadWorker } from "../jobs/enqueue-job";
import { JOB_NAMES } from "../jobs/job-names";

// Who is importing a batch right now. Like builds and validation runs, the ImportBatch row
// (not the queue) decides: a worker claims a QUEUED batch, renews its lease while it
// imports, and every checkpoint it writes is conditional on still holding it. A CLI import
// holds the same lease, so a killed CLI is noticed the same way.

export type ImportLeaseSettings = { heartbeatMs: number; leaseMs: number };
export type ImportLeaseState = "held" | "cancelRequested" | "lost" | "shutdown";

export const importJobKey = (batchId: string) => `${JOB_NAMES.importFile}:${batchId}`;

/** The owner id of an import run inside this process (the CLI, the seed, a benchmark). */
export const inProcessOwner = () => `${hostname()}-${process.pid}-in-process`;

/** The job that imports a stored upload, keyed by its batch (re-enqueueing replaces). */
export async function enqueueImportJob(db: Db, batchId: string, options: { unlockDeadWorker?: boolean } = {}) {
  const jobKey = importJobKey(batchId);
  if (options.unlockDeadWorker) await unlockJobOfDeadWorker(db, jobKey);
  await enqueueJob(db, JOB_NAMES.importFile, { batchId }, { jobKey });
}

/** QUEUED → RUNNING for this worker; false when another worker has it or it was cancelled. */
export async function claimImportBatch(db: Db, batchId: string, workerId: string): Promise<boolean> {
  const claimed = await db.importBatch.updateMany({
    where: { id: batchId, status: "QUEUED", cancelRequested: false },
    data: { status: "RUNNING", workerId, heartbeatAt: new Date(), attempts: { increment: 1 }, finishedAt: null },
  });
  return claimed.count === 1;
}

export type ImportLease = { workerId: string; state(): ImportLeaseState; stop(): void };

/** Renews the batch's lease every heartbeat until stopped; notices a cancel, a lost lease and a shutdown. */
export function holdImportLease(db: PrismaClient, batchId: string, workerId: string, settings: ImportLeaseSettings, shutdownSignal?: AbortSignal): ImportLease {
  let state: ImportLeaseState = "held";
  const end = (next: ImportLeaseState) => {
    if (state === "held") state = next;
  };
  let inFlight = false;
  const timer = setInterval(async () => {
    if (inFlight || state !== "held") return;
    inFlight = true;
    try {
      const rows = await db.$queryRaw<Array<{ cancel_requested: boolean }>>`
        update import_batches set heartbeat_at = now() where id = ${batchId} and status = 'RUNNING' and worker_id = ${workerId} returning cancel_requested`;
      if (!rows.length) end("lost");
      else if (rows[0].cancel_requested) end("cancelRequested");
    } catch {
      // a database blip: the next beat retries; past the lease, recovery takes over
    } finally {
      inFlight = false;
    }
  }, settings.heartbeatMs);
  timer.unref();
  const onShutdown = () => end("shutdown");
  shutdownSignal?.addEventListener("abort", onShutdown, { once: true });
  return {
    workerId,
    state: () => state,
    stop() {
      clearInterval(timer);
      shutdownSignal?.removeEventListener("abort", onShutdown);
    },
  };
}

/** A worker shutting down hands its batch back; the next worker resumes from the checkpoint. */
export async function requeueImportBatch(db: PrismaClient, batchId: string, workerId: string, reason: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const moved = await tx.importBatch.updateMany({ where: { id: batchId, status: "RUNNING", workerId }, data: { status: "QUEUED", workerId: null, heartbeatAt: null, errorMessage: reason } });
    if (moved.count === 1) await enqueueImportJob(tx, batchId, { unlockDeadWorker: true });
    return moved.count === 1;
  });
}

type ExpiredBatch = { id: string; attempts: number; cancel_requested: boolean; worker_id: string | null; stored: boolean };

/**
 * Crash safety for imports: a RUNNING batch whose importer stopped heartbeating (a killed
 * worker or CLI) goes back to the queue when its upload is stored — the next worker resumes
 * at the last checkpoint — or else is FAILED with a reason a curator can act on.
 */
export async function recoverImportLeases(db: PrismaClient, settings: { leaseMs: number; maxRunAttempts: number }) {
  const report = { requeued: [] as string[], failed: [] as string[], cancelled: [] as string[] };
  const expired = await db.$queryRaw<Array<{ id: string }>>`
    select id from import_batches
    where status = 'RUNNING' and coalesce(heartbeat_at, updated_at) < now() - (${settings.leaseMs}::int * interval '1 millisecond') limit 200`;
  const seconds = Math.round(settings.leaseMs / 1000);
  for (const { id } of expired) {
    await db.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<ExpiredBatch[]>`
        select id, attempts, cancel_requested, worker_id, exists (select 1 from import_upload_chunks c where c.batch_id = b.id) as stored
        from import_batches b
        where id = ${id} and status = 'RUNNING' and coalesce(heartbeat_at, updated_at) < now() - (${settings.leaseMs}::int * interval '1 millisecond')
        for update skip locked`;
      if (!row) return;
      const lost = `The importer ${row.worker_id ?? "(an older server)"} stopped responding (no heartbeat for ${seconds} s)`;
      const kept = "the records written before are kept";
      if (row.cancel_requested) {
        await finishLostBatch(tx, id, "RUNNING", "CANCELLED", `${lost}; it had been cancelled, and ${kept}`);
        report.cancelled.push(id);
      } else if (row.stored && row.attempts < settings.maxRunAttempts) {
        await tx.importBatch.update({ where: { id }, data: { status: "QUEUED", workerId: null, heartbeatAt: null, errorMessage: `${lost}; resuming (attempt ${row.attempts + 1} of ${settings.maxRunAttempts})` } });
        await enqueueImportJob(tx, id, { unlockDeadWorker: true });
        report.requeued.push(id);
      } else {
        const why = row.stored ? `gave up after ${row.attempts} attempts` : "the file was being read from that machine's disk";
        await finishLostBatch(tx, id, "RUNNING", "FAILED", `${lost}; ${why}. ${kept[0].toUpperCase()}${kept.slice(1)}: import the file again to finish it (records already imported come out unchanged)`);
        report.failed.push(id);
      }
    });
  }
  report.failed.push(...(await failAbandonedUploads(db, settings.leaseMs)));
  return report;
}

/** A QUEUED batch with no job whose bytes stopped arriving: the web process died mid-upload. */
async function failAbandonedUploads(db: PrismaClient, leaseMs: number) {
  const abandoned = await db.$queryRaw<Array<{ id: string }>>`
    select b.id from import_batches b
    where b.status = 'QUEUED' and coalesce(b.heartbeat_at, b.updated_at) < now() - (${leaseMs}::int * interval '1 millisecond')
      and not exists (select 1 from graphile_worker.jobs j where j.key = ${importJobKey("")} || b.id)
    limit 200`;
  for (const { id } of abandoned) {
    await db.$transaction((tx) => finishLostBatch(tx, id, "QUEUED", "FAILED", "The upload stopped before all its bytes arrived (the connection or the server went away); nothing was imported — upload the file again"));
  }
  return abandoned.map((b) => b.id);
}

async function finishLostBatch(tx: Db, id: string, from: "RUNNING" | "QUEUED", status: "FAILED" | "CANCELLED", errorMessage: string) {
  const { count } = await tx.importBatch.updateMany({ where: { id, status: from }, data: { status, errorMessage, finishedAt: new Date(), workerId: null } });
  if (count) await tx.importUploadChunk.deleteMany({ where: { batchId: id } });
}
