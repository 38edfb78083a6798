import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TaskSource } from "../db/client";
import type { WorkerContext } from "../worker-runtime/worker-context";
import { importFile } from "./import-file";
import { claimRow, keepLease } from "../worker-runtime/row-lease";
import { requeueRow } from "../worker-runtime/requeue-row";
import { IMPORT_JOB } from "./import-lease";
import { ImportStopped } from "./import-run";
import { describeError } from "./import-records";
import { restoreUpload } from "./upload-import";

// The worker's side of an upload: claim the batch, write its stored bytes back to a
// temporary file, import it under a lease (checkpointed, so a later attempt resumes), and
// on shutdown hand the batch back to the queue.

type StoredOptions = { source?: TaskSource; generator?: string; instanceId?: string };

export async function runImportJob(
  ctx: Pick<WorkerContext, "db" | "workerId" | "config" | "shutdownSignal" | "running">,
  batchId: string,
) {
  const { db } = ctx;
  if (!(await claimRow(db, "import_batches", batchId, ctx.workerId))) {
    // cancelled while it waited: say so; any other state belongs to someone else
    await db.importBatch.updateMany({
      where: { id: batchId, status: "QUEUED", cancelRequested: true },
      data: {
        status: "CANCELLED",
        errorMessage: "Cancelled before it started; nothing was imported",
        finishedAt: new Date(),
      },
    });
    await db.importUploadChunk.deleteMany({ where: { batchId, batch: { status: "CANCELLED" } } });
    return;
  }
  const batch = await db.importBatch.findUniqueOrThrow({ where: { id: batchId } });
  const lease = keepLease(ctx, "import_batches", batchId);
  ctx.running.add(batchId);
  const dir = await mkdtemp(path.join(tmpdir(), "swe-curator-import-job-"));
  try {
    // the client's file name is a label only (format detection reads it): never a path
    const filePath = path.join(dir, "upload");
    await restoreUpload(db, batchId, filePath);
    const options = batch.options as StoredOptions;
    await importFile(db, filePath, { batchId, fileName: batch.fileName, actorId: batch.userId, ...options, lease });
  } catch (error) {
    if (error instanceof ImportStopped && error.why === "shutdown")
      await requeueRow(
        db,
        IMPORT_JOB,
        batchId,
        "The worker importing it shut down; another worker resumes it from the last checkpoint",
        { ownedBy: ctx.workerId },
      );
    else if (!(error instanceof ImportStopped)) {
      // the stored file could not be read back: a reason on the row, not a stuck batch
      await db.importBatch.updateMany({
        where: { id: batchId, workerId: ctx.workerId, status: "RUNNING" },
        data: {
          status: "FAILED",
          errorMessage: `The import could not start: ${describeError(error)}`,
          finishedAt: new Date(),
        },
      });
    }
  } finally {
    ctx.running.delete(batchId);
    lease.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
