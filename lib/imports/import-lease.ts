import { hostname } from "node:os";
import { z } from "zod";
import type { Db, PrismaClient } from "../db/client";
import { defineJob } from "../jobs/job-type";
import type { LeasedJob } from "../worker-runtime/leased-job";
import { leaseExpired, expiredLeases } from "../worker-runtime/recover-expired-leases";
import { enqueueJobForRow, requeueRow } from "../worker-runtime/requeue-row";

// An ImportBatch is leased like a build or a validation run (lib/worker-runtime/row-lease.ts:
// claimRow, keepLease, requeueRow), and a CLI import holds the same lease, so a killed CLI
// is noticed the same way. What is the imports' own: a batch resumes only when its upload is
// stored in the database, and a finished or abandoned batch drops its stored bytes.

/** The owner id of an import run inside this process (the CLI, the seed, a benchmark). */
export const inProcessOwner = () => `${hostname()}-${process.pid}-in-process`;

/** Imports an uploaded file stored in import_upload_chunks into its ImportBatch (workers/processors/import-file.ts). */
export const IMPORT_FILE = defineJob({
  name: "import-file",
  needs: "import",
  payload: z.object({ batchId: z.string().min(1) }),
});

/** The import job as the worker runtime requeues it. */
export const IMPORT_JOB: LeasedJob = {
  table: "import_batches",
  auditEntity: "import_batch",
  // a batch keeps its started_at (when the curator started it) and its checkpoint, to resume from
  requeueResets: "",
  job: IMPORT_FILE,
  payloadFor: (batchId) => ({ batchId }),
};

/** The job that imports a stored upload, keyed by its batch (re-enqueueing replaces). */
export const enqueueImportJob = (db: Db, batchId: string) => enqueueJobForRow(db, IMPORT_JOB, batchId);

type ExpiredBatch = {
  id: string;
  attempts: number;
  cancel_requested: boolean;
  worker_id: string | null;
  stored: boolean;
};

/**
 * Crash safety for imports: a RUNNING batch whose importer stopped heartbeating (a killed
 * worker or CLI) goes back to the queue when its upload is stored — the next worker resumes
 * at the last checkpoint — or else is FAILED with a reason a curator can act on.
 */
export async function recoverImportLeases(db: PrismaClient, settings: { leaseMs: number; maxRunAttempts: number }) {
  const report = { requeued: [] as string[], failed: [] as string[], cancelled: [] as string[] };
  const seconds = Math.round(settings.leaseMs / 1000);
  for (const id of await expiredLeases(db, "import_batches", settings.leaseMs)) {
    await db.$transaction(async (tx) => {
      const [row] = await tx.$queryRawUnsafe<ExpiredBatch[]>(
        `select id, attempts, cancel_requested, worker_id, exists (select 1 from import_upload_chunks c where c.batch_id = b.id) as stored
         from import_batches b
         where id = $1 and status = 'RUNNING' and ${leaseExpired("$2")}
         for update skip locked`,
        id,
        settings.leaseMs,
      );
      if (!row) return;
      const lost = `The importer ${row.worker_id ?? "(an older server)"} stopped responding (no heartbeat for ${seconds} s)`;
      const kept = "the records written before are kept";
      if (row.cancel_requested) {
        await finishLostBatch(tx, id, "RUNNING", "CANCELLED", `${lost}; it had been cancelled, and ${kept}`);
        report.cancelled.push(id);
      } else if (row.stored && row.attempts < settings.maxRunAttempts) {
        if (
          await requeueRow(
            tx,
            IMPORT_JOB,
            id,
            `${lost}; resuming (attempt ${row.attempts + 1} of ${settings.maxRunAttempts})`,
            { leaseOlderThanMs: settings.leaseMs },
          )
        )
          report.requeued.push(id);
      } else {
        const why = row.stored
          ? `gave up after ${row.attempts} attempts`
          : "the file was being read from that machine's disk";
        await finishLostBatch(
          tx,
          id,
          "RUNNING",
          "FAILED",
          `${lost}; ${why}. ${kept[0].toUpperCase()}${kept.slice(1)}: import the file again to finish it (records already imported come out unchanged)`,
        );
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
      and not exists (select 1 from graphile_worker.jobs j where j.key = ${IMPORT_FILE.keyFor("")} || b.id)
    limit 200`;
  for (const { id } of abandoned) {
    await db.$transaction((tx) =>
      finishLostBatch(
        tx,
        id,
        "QUEUED",
        "FAILED",
        "The upload stopped before all its bytes arrived (the connection or the server went away); nothing was imported — upload the file again",
      ),
    );
  }
  return abandoned.map((b) => b.id);
}

async function finishLostBatch(
  tx: Db,
  id: string,
  from: "RUNNING" | "QUEUED",
  status: "FAILED" | "CANCELLED",
  errorMessage: string,
) {
  const { count } = await tx.importBatch.updateMany({
    where: { id, status: from },
    data: { status, errorMessage, finishedAt: new Date(), workerId: null },
  });
  if (count) await tx.importUploadChunk.deleteMany({ where: { batchId: id } });
}
