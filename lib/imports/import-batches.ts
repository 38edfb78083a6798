import { z } from "zod";
import type { PrismaClient } from "../db/client";
import { notFound } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import { removeQueuedJob } from "../jobs/enqueue-job";
import { jobKeyFor } from "../jobs/job-names";

// Reading and cancelling ImportBatches for the Imports page, the API and the CLI. A batch
// whose importer died is settled by the workers' lease recovery (import-lease.ts).

export const ListImportBatchesSchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().optional(),
});

const summary = {
  id: true,
  fileName: true,
  format: true,
  status: true,
  bytesTotal: true,
  bytesRead: true,
  created: true,
  updated: true,
  unchanged: true,
  failed: true,
  errorMessage: true,
  cancelRequested: true,
  startedAt: true,
  finishedAt: true,
  updatedAt: true,
  attempts: true,
  heartbeatAt: true,
  user: { select: { name: true, email: true } },
} as const;

export async function listImportBatches(db: PrismaClient, input: z.input<typeof ListImportBatchesSchema> = {}) {
  const { limit, cursor } = ListImportBatchesSchema.parse(input);
  const rows = await db.importBatch.findMany({
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    select: summary,
  });
  return { items: rows.slice(0, limit), nextCursor: rows.length > limit ? rows[limit - 1].id : null };
}

/** One batch with its errors (the first 1,000, each with its line and reason). */
export async function getImportBatch(db: PrismaClient, id: string) {
  const batch = await db.importBatch.findUnique({ where: { id }, select: { ...summary, errors: true } });
  if (!batch) throw notFound("The import");
  return batch;
}

/**
 * Cancels an import: a queued one at once (its stored upload is dropped), a running one at
 * its next write batch; records already written stay.
 */
export async function cancelImport(db: PrismaClient, id: string, actorId: string | null) {
  const batch = await db.importBatch.findUnique({ where: { id }, select: { status: true } });
  if (!batch) throw notFound("The import");
  if (batch.status !== "RUNNING" && batch.status !== "QUEUED") return getImportBatch(db, id);
  await db.$transaction(async (tx) => {
    const queued = await tx.importBatch.updateMany({ where: { id, status: "QUEUED" }, data: { status: "CANCELLED", cancelRequested: true, errorMessage: "Cancelled before it started; nothing was imported", finishedAt: new Date() } });
    if (queued.count) {
      await removeQueuedJob(tx, jobKeyFor.importBatch(id));
      await tx.importUploadChunk.deleteMany({ where: { batchId: id } });
    } else await tx.importBatch.updateMany({ where: { id, status: "RUNNING" }, data: { cancelRequested: true } });
    await auditLog(tx, { actorId, entityType: "import_batch", entityId: id, action: "import.cancel" });
  });
  return getImportBatch(db, id);
}
